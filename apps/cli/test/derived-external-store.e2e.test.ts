import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, SAMPLE } from "./run-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-lancedb-derived-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("an index on LanceDB (a store with stamp(): its table version) opens from derived.bin, in new processes", () => {
  it("loads the derived state instead of scanning the table, after an ingest and after a second (delta) ingest", async () => {
    const config = join(tmp, "agent.yaml");
    writeFileSync(config, `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${SAMPLE}\n    vector_store: { provider: lancedb, table: docs }\n`);
    const index = join(tmp, "index");
    const cli = (args: string[]) => runCli([...args, "--config", config, "--tool", "docs", "--index", index], { timeoutMs: 300_000 });
    expect((await cli(["ingest", SAMPLE, "--json"])).code).toBe(0);
    const first = JSON.parse((await cli(["stats", "--json"])).stdout);
    expect(first.store).toBe("lancedb");
    expect(first.open).toMatchObject({ derived: "loaded", keyword: { state: "loaded" } });
    expect(first.open.reason).toBeUndefined();
    const extra = join(tmp, "extra.md");
    writeFileSync(extra, "# Buoy Rules\n\n## Section 5 — Buoys\n\nEvery buoy is painted red, as Section 5 requires.\n");
    expect((await cli(["ingest", extra, "--json"])).code).toBe(0);
    const second = JSON.parse((await cli(["stats", "--json"])).stdout);
    expect(second.open).toMatchObject({ derived: "loaded", delta: { removed: 0, sources: 1 } });
    expect(second.chunks).toBe(first.chunks + second.open.delta.added);
    const hit = JSON.parse((await cli(["search", "buoy painted red", "--json", "--top-k", "1"])).stdout);
    expect(hit.results[0].source_path).toBe(extra);
  }, 600_000);
});
