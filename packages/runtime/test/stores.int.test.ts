import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { startChromaServer, type ChromaServer } from "@hierdoc/store-adapters-chroma/testing";
import { findStore, openIndex } from "@hierdoc/runtime";

const here = dirname(fileURLToPath(import.meta.url));
const GDPR = resolve(here, "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
const hasCorpus = existsSync(GDPR);
const env = (name: string) => process.env[name];
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-runtime-"));

let pgDb: PGlite | undefined;
let pgServer: PGLiteSocketServer | undefined;
let chroma: ChromaServer | undefined;

/** The route the router must take for a store: what its descriptor declares. */
const declaredRoute = (provider: string) => (findStore(provider)!.capabilities.nativeHybrid ? "native_hybrid" : "fallback");

/** The same GDPR ingest and searches through a config naming each store; returns what the searches found. */
async function gdprThrough(name: string, vectorStore: string): Promise<{ top: string[]; route: string }> {
  const dir = join(tmp, name);
  const config = join(tmp, `${name}.yaml`);
  writeFileSync(config, `tools:\n  - name: gdpr\n    type: hierarchical_document\n    source: ${GDPR}\n    vector_store: ${vectorStore}\n`);
  const tool = await openIndex({ index: dir, config, tool: "gdpr" }, { mustExist: false, env });
  try {
    const report = await tool.ingest([GDPR]);
    expect([report.files[0].outcome, report.files[0].error?.message]).toEqual(["added", undefined]);
    const erasure = await tool.search("right to erasure", { topK: 3 });
    const byId = await tool.search("Article 17", { topK: 3 });
    expect(byId.route).toBe(erasure.route);
    return { top: [erasure.results[0].sectionId, byId.results[0].sectionId], route: erasure.route };
  } finally {
    await tool.close();
  }
}

const suite = hasCorpus ? describe : describe.skip;
suite(`the GDPR through every store that runs here${hasCorpus ? "" : " (skipped: ../shared/corpora not present)"}`, () => {
  beforeAll(async () => {
    pgDb = await PGlite.create({ extensions: { vector } });
    pgServer = new PGLiteSocketServer({ db: pgDb, port: 0, maxConnections: 8 });
    await pgServer.start();
    chroma = await startChromaServer({ path: join(tmp, "chroma-data") });
  }, 180_000);

  afterAll(async () => {
    await chroma?.stop();
    await pgServer?.stop();
    await pgDb?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("in-memory: Article 17 first for 'right to erasure' and 'Article 17' (app-level fusion)", async () => {
    const r = await gdprThrough("memory", "{ provider: in-memory }");
    expect(r.top).toEqual(["Article 17", "Article 17"]);
    expect(r.route).toBe(declaredRoute("in-memory"));
    expect(r.route).toBe("fallback");
  }, 180_000);

  it("lancedb: the same answers through the store's native hybrid search", async () => {
    const r = await gdprThrough("lancedb", "{ provider: lancedb }");
    expect(r.top).toEqual(["Article 17", "Article 17"]);
    expect(r.route).toBe(declaredRoute("lancedb"));
    expect(r.route).toBe("native_hybrid");
  }, 180_000);

  it("faiss (in-process HNSW saved to the index folder): the same answers", async () => {
    const r = await gdprThrough("faiss", "{ provider: faiss }");
    expect(r.top).toEqual(["Article 17", "Article 17"]);
    expect(r.route).toBe(declaredRoute("faiss"));
  }, 180_000);

  it("postgres (pgvector over TCP): the same answers", async () => {
    const [host, port] = pgServer!.getServerConn().split(":");
    const r = await gdprThrough("postgres", `{ provider: postgres, connection_string: "postgres://postgres@${host}:${port}/postgres", table: gdpr_chunks }`);
    expect(r.top).toEqual(["Article 17", "Article 17"]);
    expect(r.route).toBe(declaredRoute("postgres"));
  }, 180_000);

  it("chromadb (a real local server): the same answers", async () => {
    const r = await gdprThrough("chroma", `{ provider: chromadb, url: "${chroma!.url}", collection: gdpr }`);
    expect(r.top).toEqual(["Article 17", "Article 17"]);
    expect(r.route).toBe(declaredRoute("chromadb"));
  }, 180_000);

  it("an OpenSearch keyword index that is down degrades search to semantic-only with a warning", async () => {
    const port = await new Promise<number>((res) => {
      const s = createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    const config = join(tmp, "os.yaml");
    writeFileSync(
      config,
      `tools:\n  - name: gdpr\n    type: hierarchical_document\n    source: ${GDPR}\n    keyword_index: { provider: opensearch, endpoint: "http://127.0.0.1:${port}", index_name: gdpr, timeout_seconds: 1 }\n`,
    );
    const warnings: string[] = [];
    // The index from the in-memory test holds the GDPR; only the keyword provider differs.
    const tool = await openIndex({ index: join(tmp, "memory"), config, tool: "gdpr" }, { mustExist: false, env, onWarning: (m) => warnings.push(m) });
    try {
      const res = await tool.search("right to erasure", { topK: 5 });
      expect(res.results.length).toBe(5);
      expect(res.warnings.join(" ")).toMatch(/keyword/);
      expect(res.results.every((r) => r.scores.keyword === null)).toBe(true);
    } finally {
      await tool.close();
    }
  }, 120_000);
});
