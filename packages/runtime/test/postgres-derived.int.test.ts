// An index on Postgres (a store with stamp(): its meta row of writes) opens from derived.bin (plus its delta)
// instead of scanning the table, and scans again when another process changed the table.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { openIndex } from "@hierdoc/runtime";
import { PostgresStore } from "@hierdoc/store-adapters-postgres";

const here = dirname(fileURLToPath(import.meta.url));
const SAMPLE = resolve(here, "../../../examples/sample-corpus");
const env = (name: string) => process.env[name];
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-pg-derived-"));
let db: PGlite;
let server: PGLiteSocketServer;
let url: string;

beforeAll(async () => {
  db = await PGlite.create({ extensions: { vector } });
  server = new PGLiteSocketServer({ db, port: 0, maxConnections: 8 });
  await server.start();
  url = `postgres://postgres@${server.getServerConn()}/postgres`;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await db?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("an index on Postgres opens from derived.bin", () => {
  it("loads the derived state after an ingest and after a second (delta) ingest; scans when the table changed behind it", async () => {
    const config = join(tmp, "agent.yaml");
    writeFileSync(config, `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${SAMPLE}\n    vector_store: { provider: postgres, connection_string: "${url}", table: docs_chunks }\n`);
    const index = join(tmp, "index");
    const open = () => openIndex({ index, config, tool: "docs" }, { mustExist: false, env });
    const writer = await open();
    await writer.ingest([SAMPLE]);
    await writer.close();

    const first = await open();
    expect([first.openInfo.derived, first.openInfo.reason, first.openInfo.keyword?.state]).toEqual(["loaded", undefined, "loaded"]);
    const chunks = first.chunkCount;
    const extra = join(tmp, "extra.md");
    writeFileSync(extra, "# Buoy Rules\n\n## Section 5 — Buoys\n\nEvery buoy is painted red, as Section 5 requires.\n");
    await first.ingest([extra]);
    await first.close();

    const second = await open();
    expect(second.openInfo).toMatchObject({ derived: "loaded", delta: { removed: 0, sources: 1 } });
    expect(second.chunkCount).toBe(chunks + second.openInfo.delta!.added);
    expect((await second.search("buoy painted red", { topK: 1 })).results[0].sourcePath).toBe(extra);
    await second.close();

    // Another client deletes a file's rows: the stamp changes, so the next open scans instead of serving stale state.
    const other = new PostgresStore({ connection: { connectionString: url, max: 1 }, table: "docs_chunks" });
    await other.open({ embedderId: second.embedder.id, dimensions: second.embedder.dimensions });
    await other.deleteBySource(extra);
    await other.close();
    const third = await open();
    expect(third.openInfo.derived).toBe("scanned");
    expect(third.openInfo.reason).toMatch(/^stale/);
    expect(third.chunkCount).toBe(chunks);
    await third.close();
  }, 300_000);
});
