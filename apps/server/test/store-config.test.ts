import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openIndex } from "@hierdoc/runtime";
import { serve, type ServeHandle } from "@hierdoc/server";
import { FakeQdrant } from "@hierdoc/store-adapters-qdrant/testing";

// The server opens stores through the runtime's registry, like the CLI: any provider of the registry is served.
const here = dirname(fileURLToPath(import.meta.url));
const SAMPLE = resolve(here, "../../../examples/sample-corpus");
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-server-store-"));
const qdrant = new FakeQdrant();
let handle: ServeHandle | undefined;
const config = join(tmp, "agent.yaml");
const index = join(tmp, "index");

beforeAll(async () => {
  await qdrant.start();
  writeFileSync(config, `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${SAMPLE}\n    vector_store: { provider: qdrant, url: "${qdrant.url}", collection: samples }\n`);
  const tool = await openIndex({ index, config, tool: "docs" }, { mustExist: false, env: () => undefined });
  try {
    await tool.ingest([SAMPLE]);
  } finally {
    await tool.close();
  }
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await qdrant.stop();
  rmSync(tmp, { recursive: true, force: true });
});

describe("hierdoc serve over a store named in the config", () => {
  it("serves search from the configured qdrant collection, by the store's native hybrid route", async () => {
    handle = await serve({ index, config, toolName: "docs", port: 0, handleSignals: false, logger: () => undefined });
    qdrant.reset();
    const res = await fetch(`${handle.url}/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "Section 7", top_k: 3 }) });
    expect(res.status).toBe(200);
    const out = (await res.json()) as { route: string; results: Array<{ section_id: string }> };
    expect(out.route).toBe("native_hybrid");
    expect(out.results[0].section_id).toMatch(/^Section 7/);
    expect(qdrant.find("/collections/samples/points/query", "POST").length).toBeGreaterThan(0);
  }, 60_000);

  it("refuses to start on a config whose store block is invalid, naming the YAML path", async () => {
    const bad = join(tmp, "bad.yaml");
    writeFileSync(bad, `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${SAMPLE}\n    vector_store: { provider: qdrant }\n`);
    await expect(serve({ index, config: bad, toolName: "docs", port: 0, handleSignals: false, logger: () => undefined })).rejects.toThrow(
      `${bad}:5: tools[0].vector_store.url: required for qdrant`,
    );
  });
});
