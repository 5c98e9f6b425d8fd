import { describe, expect, it } from "@jest/globals";
import { readmeExampleBlock } from "@hierdoc/core/testing";

describe("readmeExampleBlock", () => {
  const readme = "# x\n\n<!-- packages/a.b/test/readme-example.ts -->\n```ts\nconst x = 1;\n```\n\n```ts\nother\n```\n";
  it("returns the trimmed ts block right after the marker, and nothing for another path or a marker without a block", () => {
    expect(readmeExampleBlock(readme, "packages/a.b/test/readme-example.ts")).toBe("const x = 1;");
    expect(readmeExampleBlock(readme, "packages/aXb/test/readme-example.ts")).toBeUndefined();
    expect(readmeExampleBlock("<!-- packages/a.b/test/readme-example.ts -->\ntext", "packages/a.b/test/readme-example.ts")).toBeUndefined();
  });
});
