import { describe, expect, it } from "@jest/globals";
import { StringTable } from "@hierdoc/core";

describe("StringTable", () => {
  it("numbers each distinct string once, in first-seen order, and absent values as -1", () => {
    const t = new StringTable();
    expect(["Article 17", "GDPR", "Article 17", "", "GDPR"].map((s) => t.intern(s))).toEqual([0, 1, 0, 2, 1]);
    expect(t.intern(null)).toBe(-1);
    expect(t.intern(undefined)).toBe(-1);
    expect(t.strings).toEqual(["Article 17", "GDPR", ""]);
  });
});
