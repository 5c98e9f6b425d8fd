import { describe, expect, it } from "@jest/globals";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedBlock, replaceGeneratedBlock, STORE_DESCRIPTORS, storeKeysMarkdown, storeTableMarkdown } from "@hierdoc/runtime";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const read = (rel: string) => readFileSync(join(root, rel), "utf8");
const adapterReadmes = readdirSync(join(root, "packages"))
  .filter((d) => d.startsWith("store-adapters-"))
  .map((d) => `packages/${d}/README.md`)
  .filter((f) => {
    try {
      return read(f).length > 0;
    } catch {
      return false;
    }
  });

describe("the generated store documentation (node tools/ci/store-docs.mjs)", () => {
  it("the root README's store table is the one the descriptors give, a row per registered store", () => {
    const table = generatedBlock(read("README.md"), "store-table");
    expect(table).toBe(storeTableMarkdown());
    expect(table!.split("\n").length).toBe(STORE_DESCRIPTORS.length + 2);
    for (const d of STORE_DESCRIPTORS) expect(table).toContain(`| \`${d.providers[0]}\``);
  });

  it.each(STORE_DESCRIPTORS.map((d) => [d.providers[0], d] as const))("%s: an adapter README lists its YAML keys as the descriptor declares them", (name, d) => {
    const blocks = adapterReadmes.map((f) => generatedBlock(read(f), `store-keys:${name}`)).filter((b) => b !== undefined);
    expect(blocks).toEqual([storeKeysMarkdown(d)]);
    for (const k of d.keys) expect(blocks[0]).toContain(`| \`${k.key}\` |`);
  });

  it("replaces only what is between the markers, and leaves text without them alone", () => {
    const text = "a\n<!-- x -->\nold\n<!-- /x -->\nb";
    expect(replaceGeneratedBlock(text, "x", "new")).toBe("a\n<!-- x -->\nnew\n<!-- /x -->\nb");
    expect(replaceGeneratedBlock("no markers", "x", "new")).toBe("no markers");
    expect(generatedBlock(text, "y")).toBeUndefined();
  });
});
