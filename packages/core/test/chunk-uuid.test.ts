import { createHash } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { chunkUuid } from "@hierdoc/core";

describe("chunkUuid", () => {
  it("is a version-5 layout, RFC variant UUID over SHA-1 of 'hierdoc:' + the chunk id", () => {
    const id = chunkUuid("docs/a.md_chunk_3");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const sha = createHash("sha1").update("hierdoc:docs/a.md_chunk_3").digest("hex");
    // Apart from the version and variant bits, the UUID is the first 16 bytes of the hash.
    expect(id.replace(/-/g, "").slice(0, 12)).toBe(sha.slice(0, 12));
    expect(id.replace(/-/g, "").slice(20)).toBe(sha.slice(20, 32));
  });

  it("is stable per chunk id and differs between chunk ids", () => {
    expect(chunkUuid("docs/a.md_chunk_1")).toBe(chunkUuid("docs/a.md_chunk_1"));
    expect(chunkUuid("docs/a.md_chunk_1")).not.toBe(chunkUuid("docs/a.md_chunk_2"));
  });
});
