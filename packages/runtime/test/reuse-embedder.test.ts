// openIndex's reuseEmbedderOf: a server reloading its folder shares the embedder it already loaded, unless the
// config now names another one.
import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openIndex } from "@hierdoc/runtime";

const SAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), "../../../examples/sample-corpus/harbour-data-act.md");
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-reuse-embedder-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const env = (name: string) => (name === "HIERDOC_CACHE_DIR" ? join(tmp, "cache") : undefined);

/** An agent.yaml naming the hash embedder with `dimensions`. */
function configWith(dimensions: number): string {
  const file = join(tmp, `agent-${dimensions}.yaml`);
  writeFileSync(file, `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${SAMPLE}\n    embedding: { provider: hash, dimensions: ${dimensions} }\n`);
  return file;
}

describe("openIndex reuseEmbedderOf", () => {
  it("uses the given tool's embedder when the config names the same embedding, and loads another when it does not", async () => {
    const index = join(tmp, "index");
    const first = await openIndex({ index, config: configWith(64), tool: "docs" }, { mustExist: false, env });
    await first.ingest([SAMPLE]);
    const again = await openIndex({ index, config: configWith(64), tool: "docs" }, { mustExist: true, env, reuseEmbedderOf: first });
    const fresh = await openIndex({ index, config: configWith(64), tool: "docs" }, { mustExist: true, env });
    try {
      expect(again.embedder).toBe(first.embedder);
      expect(fresh.embedder).not.toBe(first.embedder);
      // The shared embedder still answers after the tool it came from is closed (tools do not close embedders).
      await first.close();
      const hits = await again.search("harbour data", { topK: 3, mode: "semantic" });
      expect(hits.results.length).toBeGreaterThan(0);
      expect(hits.results).toEqual((await fresh.search("harbour data", { topK: 3, mode: "semantic" })).results);
    } finally {
      await again.close();
      await fresh.close();
    }
    const other = await openIndex({ index: join(tmp, "other"), config: configWith(32), tool: "docs" }, { mustExist: false, env, reuseEmbedderOf: again });
    try {
      expect(other.embedder).not.toBe(again.embedder);
      expect(other.embedder.dimensions).toBe(32);
    } finally {
      await other.close();
    }
  });
});
