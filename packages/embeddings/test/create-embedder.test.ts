import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddingConfigSchema } from "@hierdoc/core";
import { GloveEmbedder, HashEmbedder, OpenAIEmbedder, createEmbedder } from "@hierdoc/embeddings";
import { FakeEmbeddingsServer } from "./fake-embeddings-server.js";

const server = new FakeEmbeddingsServer();
let baseURL: string;
let dir: string;

beforeAll(async () => {
  baseURL = `${await server.start()}/v1`;
  dir = await mkdtemp(join(tmpdir(), "hierdoc-create-embedder-"));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("createEmbedder", () => {
  it("builds a GloVe embedder for the schema default ({provider: glove})", async () => {
    const sourcePath = join(dir, "tiny.json");
    await writeFile(sourcePath, JSON.stringify({ dimensions: 2, words: ["law", "court"], vectors: { law: [1, 0, 1, 0], court: [0, 1, 1, 1] } }));
    const config = EmbeddingConfigSchema.parse({});
    const e = await createEmbedder(config, { cacheDir: dir, glove: { sourcePath } });
    expect(e).toBeInstanceOf(GloveEmbedder);
    expect(e.dimensions).toBe(2);
    expect(Array.from(await e.embedQuery("Law")).map((x) => Math.round(x))).toEqual([1, 0]);
  });

  it("builds a hash embedder with the configured dimensions", async () => {
    const e = await createEmbedder(EmbeddingConfigSchema.parse({ provider: "hash", dimensions: 32 }));
    expect(e).toBeInstanceOf(HashEmbedder);
    expect((await e.embedQuery("a b c")).length).toBe(32);
  });

  it("maps an openai-compatible entry (name, base_url, api_key, dimensions, batch_size) to requests", async () => {
    const config = EmbeddingConfigSchema.parse({ provider: "openai-compatible", name: "bge-m3", base_url: baseURL, api_key: "local", dimensions: 8, batch_size: 2 });
    const e = await createEmbedder(config, { openai: { maxRetries: 0 } });
    expect(e).toBeInstanceOf(OpenAIEmbedder);
    expect(e.id).toBe("openai-compatible:bge-m3:8");
    await e.embedDocuments(["one", "two", "three"]);
    expect(server.requests.map((r) => r.body?.input)).toEqual([["one", "two"], ["three"]]);
    expect(server.requests[0].body?.model).toBe("bge-m3");
    expect(server.requests[0].headers.authorization).toBe("Bearer local");
  });

  it("rejects transformers without a model, openai-compatible without base_url, and unknown providers with E_CONFIG", async () => {
    await expect(createEmbedder({ provider: "transformers" })).rejects.toMatchObject({ code: "E_CONFIG", details: { path: "embedding.name" } });
    await expect(createEmbedder({ provider: "openai-compatible", name: "m", dimensions: 4 })).rejects.toMatchObject({
      code: "E_CONFIG",
      details: { path: "embedding.base_url" },
    });
    await expect(createEmbedder({ provider: "nope" as never })).rejects.toMatchObject({ code: "E_CONFIG" });
  });
});
