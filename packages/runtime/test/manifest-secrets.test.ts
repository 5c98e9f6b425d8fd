import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { MANIFEST, openIndex, withoutStoreSecrets } from "@hierdoc/runtime";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

const SAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), "../../../examples/sample-corpus/harbour-data-act.md");
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-manifest-secrets-"));
const PASSWORD = "pg-pw-e2e";
let db: PGlite | undefined;
let server: PGLiteSocketServer | undefined;

beforeAll(async () => {
  db = await PGlite.create({ extensions: { vector } });
  server = new PGLiteSocketServer({ db, port: 0, maxConnections: 4 });
  await server.start();
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await db?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("store secrets and the index manifest", () => {
  it("a connection string with a password is used to connect but not written to the manifest; reopening without the config asks for it", async () => {
    const uri = `postgres://postgres:${PASSWORD}@${server!.getServerConn()}/postgres`;
    const config = join(tmp, "agent.yaml");
    writeFileSync(config, `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${SAMPLE}\n    vector_store: { provider: postgres, connection_string: "\${PG_URI}", table: docs }\n`);
    const index = join(tmp, "index");
    const env = (n: string) => (n === "PG_URI" ? uri : undefined);
    const tool = await openIndex({ index, config, tool: "docs" }, { mustExist: false, env });
    try {
      const report = await tool.ingest([SAMPLE]);
      expect(report.files[0].outcome).toBe("added");
    } finally {
      await tool.close();
    }
    expect((await db!.query<{ n: number }>("SELECT count(*)::int AS n FROM docs")).rows[0].n).toBeGreaterThan(0);
    const manifest = readFileSync(join(index, MANIFEST), "utf8");
    expect(manifest).not.toContain(PASSWORD);
    expect(JSON.parse(manifest).config.vector_store).toMatchObject({ provider: "postgres", connection_string: "***", table: "docs" });
    await expect(openIndex({ index }, { mustExist: true, env })).rejects.toThrow(/vector_store\.connection_string: the index keeps no secrets: pass the config again/);
  }, 60_000);

  it("withoutStoreSecrets masks exactly the keys the store declares secret", () => {
    expect(withoutStoreSecrets({ vector_store: { provider: "pinecone", host: "https://h", api_key: "pk", namespace: "n" } })).toEqual({ provider: "pinecone", host: "https://h", api_key: "***", namespace: "n" });
    expect(withoutStoreSecrets({ vector_store: { provider: "in-memory", path: "/x" } })).toEqual({ provider: "in-memory", path: "/x" });
  });
});
