import { afterAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HierdocError, ToolConfigSchema } from "@hierdoc/core";
import { paragraphRecords } from "@hierdoc/core/testing";
import { readdirSync } from "node:fs";
import { createStore, findStore, resolveConfig, STORE_DESCRIPTORS, STORE_PROVIDERS, storeConfigProblems } from "@hierdoc/runtime";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-registry-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Replaces `${VAR}` references of a descriptor's example with placeholder values (no service is contacted). */
function fill(example: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const values: Record<string, string> = {
    "${MONGODB_URI}": "mongodb://127.0.0.1:27017/",
    "${DATABASE_URL}": "postgres://u@127.0.0.1:5432/db",
    "${SQLSERVER_CONNECTION_STRING}": "Server=tcp:127.0.0.1,1433;Database=db;User Id=u;Password=p;Encrypt=false",
  };
  return JSON.parse(JSON.stringify(example).replace(/\$\{[A-Z_]+\}/g, (ref) => values[ref] ?? "k"));
}
const toolWith = (vectorStore: Record<string, unknown>) => ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ".", vector_store: vectorStore });

describe("the store registry", () => {
  it("holds every adapter once, each provider name (and alias) selecting exactly one descriptor", () => {
    const names = STORE_DESCRIPTORS.flatMap((d) => d.providers);
    expect(new Set(names).size).toBe(names.length);
    expect(STORE_PROVIDERS).toEqual(expect.arrayContaining(["in-memory", "postgres", "chromadb", "lancedb", "qdrant", "weaviate", "pinecone", "azure-ai-search", "mongodb", "opensearch"]));
    for (const name of names) expect(findStore(name)?.providers).toContain(name);
    expect(findStore("memory")).toBe(findStore("in-memory"));
    expect(findStore("redis")).toBeUndefined();
  });

  it("documents every key of each store's schema, with a description, secrets marked", () => {
    for (const d of STORE_DESCRIPTORS) {
      expect(d.keys.length).toBeGreaterThan(0);
      for (const k of d.keys) expect([d.providers[0], k.key, k.description.length > 10]).toEqual([d.providers[0], k.key, true]);
      for (const k of d.keys.filter((x) => /api_key|password/.test(x.key))) expect([d.providers[0], k.key, k.secret]).toEqual([d.providers[0], k.key, true]);
    }
  });

  it.each(STORE_DESCRIPTORS.map((d) => [d.providers[0], d] as const))("%s: its example is valid and opens an adapter whose capabilities are the declared ones", async (_name, d) => {
    expect(storeConfigProblems(toolWith(fill(d.example)))).toEqual([]);
    const store = await createStore(toolWith(fill(d.example)), join(tmp, d.providers[0]), () => undefined);
    try {
      expect(store.capabilities).toEqual(d.capabilities);
    } finally {
      await store.close().catch(() => undefined);
    }
  });

  it("a missing required key is reported with its path and the store's name", () => {
    expect(storeConfigProblems(toolWith({ provider: "qdrant", collection: "c" }))).toEqual([{ path: ["vector_store", "url"], message: "required for qdrant" }]);
    const pinecone = storeConfigProblems(toolWith({ provider: "pinecone" })).map((p) => `${p.path.join(".")}: ${p.message}`);
    expect(pinecone.sort()).toEqual(["vector_store.api_key: required for pinecone", "vector_store.host: required for pinecone"]);
  });

  it("an unknown key or a bad value is a problem; an unknown provider lists the available ones", () => {
    const problems = storeConfigProblems(toolWith({ provider: "qdrant", url: "http://q:6333", colection: "x", timeout_seconds: 0 }));
    expect(problems.map((p) => p.path.join("."))).toEqual(expect.arrayContaining(["vector_store", "vector_store.timeout_seconds"]));
    expect(problems.find((p) => p.path.length === 1)?.message).toMatch(/unknown key\(s\): colection/);
    const [unknown] = storeConfigProblems(toolWith({ provider: "redis" }));
    expect(unknown.path).toEqual(["vector_store", "provider"]);
    for (const name of STORE_PROVIDERS) expect(unknown.message).toContain(name);
  });

  it("a secret read back from an index manifest (stored as ***) asks for the config again instead of sending *** to the service", () => {
    expect(storeConfigProblems(toolWith({ provider: "pinecone", host: "https://i.svc.pinecone.io", api_key: "***" }))).toEqual([
      { path: ["vector_store", "api_key"], message: "the index keeps no secrets: pass the config again (--config FILE --tool NAME) with it as ${ENV_VAR}" },
    ]);
  });

  it("the default store's ann block is validated with its paths and reaches the store (graph file written or not)", async () => {
    expect(storeConfigProblems(toolWith({ provider: "in-memory", ann: false }))).toEqual([]);
    expect(storeConfigProblems(toolWith({ provider: "in-memory", ann: { threshold: 0, ef_search: 64, quantization: "f16" } }))).toEqual([]);
    // i8 graphs (for 1,536-d API embeddings, re-scored exactly) are selectable from YAML; an unknown scalar type is a problem at the ann block (a union with `false`).
    expect(storeConfigProblems(toolWith({ provider: "in-memory", ann: { quantization: "i8", ef_construction: 64 } }))).toEqual([]);
    expect(storeConfigProblems(toolWith({ provider: "in-memory", ann: { quantization: "i4" } })).map((p) => p.path.join("."))).toEqual(["vector_store.ann"]);
    const bad = storeConfigProblems(toolWith({ provider: "in-memory", ann: { m: 1, speed: 2 } })).map((p) => p.path.join("."));
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.every((p) => p.startsWith("vector_store.ann"))).toBe(true);
    const graphFiles = async (ann: unknown, name: string): Promise<string[]> => {
      const dir = join(tmp, name);
      const store = await createStore(toolWith({ provider: "in-memory", path: dir, ann }), tmp, () => undefined);
      await store.open({ embedderId: "test", dimensions: 8 });
      await store.upsert(paragraphRecords(40, 8));
      await store.flush();
      await store.close();
      return readdirSync(dir).filter((f) => f.endsWith(".usearch"));
    };
    expect(await graphFiles({ threshold: 10 }, "ann-on")).toHaveLength(1);
    expect(await graphFiles({ threshold: 10, quantization: "i8" }, "ann-i8")).toHaveLength(1);
    expect(await graphFiles(false, "ann-off")).toEqual([]);
    expect(await graphFiles(undefined, "ann-default")).toEqual([]); // 40 records: below the default threshold of 20,000
  });

  it("createStore refuses a bad block with E_CONFIG naming the YAML path, before loading any driver", async () => {
    const err = await createStore(toolWith({ provider: "weaviate" }), tmp, () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HierdocError);
    expect((err as HierdocError).code).toBe("E_CONFIG");
    expect((err as HierdocError).message).toBe("vector_store.url: required for weaviate");
  });

  it("postgres takes DATABASE_URL from the environment when connection_string is absent, else says what to set", async () => {
    const err = await createStore(toolWith({ provider: "postgres" }), tmp, () => undefined).catch((e: unknown) => e);
    expect((err as HierdocError).code).toBe("E_CONFIG");
    expect((err as HierdocError).message).toMatch(/^vector_store\.connection_string: required for postgres/);
    const store = await createStore(toolWith({ provider: "postgres" }), tmp, (n) => (n === "DATABASE_URL" ? "postgres://u@127.0.0.1:5432/db" : undefined));
    expect(store.capabilities.fullText).toBe(true);
    await store.close();
  });
});

describe("a config file naming a store", () => {
  const write = (name: string, vectorStore: string) => {
    const file = join(tmp, name);
    writeFileSync(file, `agent: x\ntools:\n  - name: other\n    type: web_search\n  - name: docs\n    type: hierarchical_document\n    source: ./docs\n    vector_store:\n${vectorStore}`);
    return file;
  };

  it("reports a missing key as file:line: tools[1].vector_store.url: required for qdrant", () => {
    const file = write("qdrant.yaml", "      provider: qdrant\n      collection: legal\n");
    expect(() => resolveConfig({ index: tmp, config: file, tool: "docs" }, () => undefined)).toThrow(`${file}:8: tools[1].vector_store.url: required for qdrant`);
  });

  it("interpolates ${ENV} secrets and reports an unknown provider with its line", () => {
    const ok = write("pinecone.yaml", "      provider: pinecone\n      host: https://i.svc.pinecone.io\n      api_key: ${PC_KEY}\n");
    const cfg = resolveConfig({ index: tmp, config: ok, tool: "docs" }, (n) => (n === "PC_KEY" ? "pk-123" : undefined));
    expect(cfg.vector_store).toMatchObject({ provider: "pinecone", api_key: "pk-123" });
    const bad = write("redis.yaml", "      provider: redis\n");
    expect(() => resolveConfig({ index: tmp, config: bad, tool: "docs" }, () => undefined)).toThrow(new RegExp(`${bad}:9: tools\\[1\\]\\.vector_store\\.provider: unknown store "redis" \\(available: in-memory \\| memory, `));
  });
});
