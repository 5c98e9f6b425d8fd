import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedPort } from "@hierdoc/core/testing";
import { findStore, STORE_DESCRIPTORS } from "@hierdoc/runtime";
import { FakeCosmos } from "@hierdoc/store-adapters-azure-cosmos/testing";
import { FakeAzureSearch } from "@hierdoc/store-adapters-azure-search/testing";
import { FakeMongo } from "@hierdoc/store-adapters-mongodb/testing";
import { FakeOpenSearch } from "@hierdoc/store-adapters-opensearch/testing";
import { FakePinecone } from "@hierdoc/store-adapters-pinecone/testing";
import { FakeQdrant } from "@hierdoc/store-adapters-qdrant/testing";
import { FakeWeaviate } from "@hierdoc/store-adapters-weaviate/testing";
import { CORPORA, runCli } from "./run-cli.js";

// Each store that cannot run here, selected from YAML through the built CLI and pointed at its package's local
// server speaking the store's documented wire format. A new adapter is one row.

/** A running wire-format stand-in: its URL, how many writes it received, how to stop it. */
interface WireServer {
  url: string;
  writes(): number;
  stop(): Promise<void>;
}

interface Row {
  /** `vector_store.provider`. */
  provider: string;
  start(): Promise<WireServer>;
  /** The rest of the `vector_store` block (YAML flow mapping entries) for a server at `url`. */
  block(url: string): string;
  /** Environment the config's `${…}` references read, for a server at `url`. */
  env?: (url: string) => Record<string, string>;
}

/** An HTTP stand-in (`RecordingHttpServer`): writes are POST / PUT requests. */
async function http<T extends { start(): Promise<string>; url: string; requests: ReadonlyArray<{ method: string }>; stop(): Promise<void> }>(server: T): Promise<WireServer> {
  await server.start();
  return { url: server.url, writes: () => server.requests.filter((r) => r.method === "POST" || r.method === "PUT").length, stop: () => server.stop() };
}

/** The MongoDB wire-protocol stand-in: writes are update / insert commands. */
async function mongo(): Promise<WireServer> {
  const server = new FakeMongo();
  await server.start();
  return { url: server.url, writes: () => server.find("update").length + server.find("insert").length, stop: () => server.stop() };
}

/** The account key the Cosmos stand-in checks request signatures with (base64, like a real key). */
const COSMOS_KEY = Buffer.from("hierdoc end-to-end cosmos account key").toString("base64");

/** GloVe vectors have 100 dimensions; the Pinecone stand-in serves one index of a fixed dimension. */
const GLOVE_DIMENSIONS = 100;

const ROWS: Row[] = [
  { provider: "qdrant", start: () => http(new FakeQdrant()), block: (url) => `url: "${url}", collection: gdpr` },
  { provider: "weaviate", start: () => http(new FakeWeaviate()), block: (url) => `url: "${url}", collection: Gdpr` },
  {
    provider: "pinecone",
    start: () => http(new FakePinecone(GLOVE_DIMENSIONS)),
    block: (url) => `host: "${url}", api_key: "\${E2E_PINECONE_KEY}", namespace: gdpr`,
    env: () => ({ E2E_PINECONE_KEY: "pc-e2e-key" }),
  },
  {
    provider: "azure-ai-search",
    start: () => http(new FakeAzureSearch()),
    // The stand-in accepts the key "test-key" only: the ${ENV} reference must have been interpolated.
    block: (url) => `endpoint: "${url}", api_key: "\${E2E_AZURE_SEARCH_KEY}", index: gdpr`,
    env: () => ({ E2E_AZURE_SEARCH_KEY: "test-key" }),
  },
  { provider: "opensearch", start: () => http(new FakeOpenSearch()), block: (url) => `url: "${url}", index: gdpr` },
  {
    provider: "azure-cosmos-nosql",
    start: () => http(new FakeCosmos(COSMOS_KEY)),
    block: (url) => `endpoint: "${url}", key: "\${E2E_COSMOS_KEY}", database: hierdoc, container: gdpr`,
    env: () => ({ E2E_COSMOS_KEY: COSMOS_KEY }),
  },
  {
    provider: "mongodb",
    start: mongo,
    block: () => `connection_string: "\${E2E_MONGODB_URI}", database: hierdoc, collection: gdpr`,
    // The connection string (a secret: it carries the credentials in real use) comes from the environment.
    env: (url) => ({ E2E_MONGODB_URI: url }),
  },
];

describe("the rows", () => {
  it("cover every store the registry tests against a wire-format server (sql-server is tested through a driver double: no TDS server here)", () => {
    const remote = STORE_DESCRIPTORS.filter((d) => d.testedWith === "wire").map((d) => d.providers[0]);
    expect(remote.sort()).toEqual(ROWS.map((r) => r.provider).sort());
    expect(STORE_DESCRIPTORS.filter((d) => d.testedWith === "driver-double").map((d) => d.providers[0])).toEqual(["sql-server"]);
    for (const row of ROWS) expect(findStore(row.provider)?.testedWith).toBe("wire");
  });
});

const GDPR = join(CORPORA, "gdpr/gdpr_2016_679.md");
const hasCorpus = existsSync(GDPR);
const tmp = mkdtempSync(join(tmpdir(), "hierdoc-stores-e2e-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** An agent.yaml with one `gdpr` tool over the GDPR whose vector store is `{ provider, …block }`. */
function agentYaml(name: string, provider: string, block: string): string {
  const file = join(tmp, `${name}.yaml`);
  writeFileSync(file, `tools:\n  - name: gdpr\n    type: hierarchical_document\n    source: ${GDPR}\n    vector_store: { provider: ${provider}, ${block} }\n`);
  return file;
}

const suite = hasCorpus ? describe : describe.skip;
suite.each(ROWS)(`hierdoc ingest + search --config naming $provider, against its wire-format server${hasCorpus ? "" : " (skipped: ../shared/corpora not present)"}`, (row) => {
  let server: WireServer;
  let config: string;
  const index = join(tmp, row.provider);
  let env: Record<string, string> = {};
  const cli = (args: string[]) => runCli([...args, "--config", config, "--tool", "gdpr", "--index", index, "--json"], { env, timeoutMs: 300_000 });

  beforeAll(async () => {
    server = await row.start();
    config = agentYaml(row.provider, row.provider, row.block(server.url));
    env = row.env?.(server.url) ?? {};
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("ingests the GDPR into the store", async () => {
    const res = await cli(["ingest"]);
    const report = JSON.parse(res.stdout);
    expect([res.code, report.files.map((f: { outcome: string; error?: unknown }) => f.error ?? f.outcome)]).toEqual([0, ["added"]]);
    expect(res.stderr).not.toMatch(/"error"/);
    expect(report.chunks_written).toBeGreaterThan(100);
    // The records went to the server, not to a local store.
    expect(server.writes()).toBeGreaterThan(1);
    expect(existsSync(join(index, "store"))).toBe(false);
  }, 300_000);

  it("ranks Article 17 first for 'right to erasure' and 'Article 17', by the route the store's capabilities declare", async () => {
    const expectedRoute = findStore(row.provider)!.capabilities.nativeHybrid ? "native_hybrid" : "fallback";
    for (const query of ["right to erasure", "Article 17"]) {
      const res = await cli(["search", query, "--top-k", "3"]);
      expect([res.code, res.stderr]).toEqual([0, ""]);
      const out = JSON.parse(res.stdout);
      expect([query, out.results[0].section_id, out.route]).toEqual([query, "Article 17", expectedRoute]);
      expect(out.warnings).toEqual([]);
    }
  }, 120_000);
});

describe("hierdoc with a store whose server is down", () => {
  it("exits with code 1 and one retryable E_STORE_UNAVAILABLE naming the store, its URL and the operation, in under 15 s", async () => {
    const port = await closedPort();
    const config = agentYaml("down", "qdrant", `url: "http://127.0.0.1:${port}", api_key: "\${E2E_QDRANT_KEY}"`);
    const started = Date.now();
    const res = await runCli(["ingest", "--config", config, "--tool", "gdpr", "--index", join(tmp, "down"), "--json"], { env: { E2E_QDRANT_KEY: "qd-secret-key" } });
    const elapsed = Date.now() - started;
    expect(res.code).toBe(1);
    const { error } = JSON.parse(res.stderr.trim().split("\n").pop()!);
    expect([error.code, error.retryable]).toEqual(["E_STORE_UNAVAILABLE", true]);
    expect(error.message).toContain(`qdrant at http://127.0.0.1:${port} is unavailable: open failed`);
    expect(error.details).toMatchObject({ adapter: "qdrant", operation: "open" });
    expect(res.stderr).not.toContain("qd-secret-key");
    expect(elapsed).toBeLessThan(15_000);
  }, 30_000);
});
