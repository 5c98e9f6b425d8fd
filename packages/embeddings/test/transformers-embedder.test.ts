import { mkdtemp, rm, unlink } from "node:fs/promises";
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TransformersEmbedder, cosineSimilarity, createEmbedder } from "@hierdoc/embeddings";
import { writeTinyTransformersModel } from "@hierdoc/embeddings/testing";

const VOCAB = "right to erasure deletion removal of personal data highway funds firearms records the controller shall erase without delay state grants".split(" ");
const SYNONYMS = [["erasure", "deletion", "removal", "erase"]];

let work: string;
let modelDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "hierdoc-tjs-"));
  modelDir = join(work, "tiny-minilm");
  await writeTinyTransformersModel(modelDir, { vocabulary: VOCAB, synonyms: SYNONYMS, hidden: 32 });
});
afterAll(() => rm(work, { recursive: true, force: true }));

function norm(v: Float32Array): number {
  return Math.hypot(...Array.from(v));
}

describe("TransformersEmbedder on a local model folder (real transformers.js + ONNX Runtime)", () => {
  it("loads from embedding.model_path, measures the dimensions, and records model, dtype and pooling in its id", async () => {
    const e = await createEmbedder({ provider: "transformers", model_path: modelDir });
    expect(e).toBeInstanceOf(TransformersEmbedder);
    expect(e.dimensions).toBe(32);
    expect(e.id).toBe("transformers:tiny-minilm:fp32:mean");
    const named = await createEmbedder({ provider: "transformers", model_path: modelDir, name: "Xenova/all-MiniLM-L6-v2", pooling: "cls", query_prefix: "query: " });
    expect(named.id).toMatch(/^transformers:Xenova\/all-MiniLM-L6-v2:fp32:cls:p[0-9a-f]{8}$/);
  });

  it("embeds by meaning the model knows: a query with a synonym is nearest the matching passage", async () => {
    const e = await createEmbedder({ provider: "transformers", model_path: modelDir });
    const docs = ["the controller shall erase personal data without delay", "highway funds for state grants", "firearms records"];
    const vectors = await e.embedDocuments(docs);
    const q = await e.embedQuery("deletion of personal data");
    for (const v of [...vectors, q]) expect(norm(v)).toBeCloseTo(1, 5);
    const scores = vectors.map((v) => cosineSimilarity(q, v));
    expect(scores.indexOf(Math.max(...scores))).toBe(0);
    expect(scores[0]).toBeGreaterThan(Math.max(scores[1]!, scores[2]!));
    // The synonym is what lifts it: the same query with an unknown word in its place scores lower.
    const without = cosineSimilarity(await e.embedQuery("zzz of personal data"), vectors[0]!);
    expect(scores[0]).toBeGreaterThan(without + 0.05);
  });

  it("keeps input order across batches, gives empty text the zero vector, and is deterministic", async () => {
    const texts = ["right to erasure", "", "highway funds", "firearms records", "   ", "personal data of the controller"];
    const small = await createEmbedder({ provider: "transformers", model_path: modelDir, batch_size: 2 });
    const batched = await small.embedDocuments(texts);
    const one = await createEmbedder({ provider: "transformers", model_path: modelDir, batch_size: 64 });
    const whole = await one.embedDocuments(texts);
    expect(norm(batched[1]!)).toBe(0);
    expect(norm(batched[4]!)).toBe(0);
    texts.forEach((_, i) => Array.from(batched[i]!).forEach((x, d) => expect(x).toBeCloseTo(whole[i]![d]!, 5)));
    const alone = await one.embedQuery("highway funds");
    Array.from(alone).forEach((x, d) => expect(x).toBeCloseTo(whole[2]![d]!, 5));
    expect(cosineSimilarity(whole[0]!, whole[2]!)).toBeLessThan(0.9);
  });

  it("applies document and query prefixes, so they change the vectors", async () => {
    const plain = await createEmbedder({ provider: "transformers", model_path: modelDir });
    const prefixed = await createEmbedder({ provider: "transformers", model_path: modelDir, document_prefix: "firearms ", query_prefix: "highway " });
    const [a] = await plain.embedDocuments(["personal data"]);
    const [b] = await prefixed.embedDocuments(["personal data"]);
    const [c] = await plain.embedDocuments(["firearms personal data"]);
    Array.from(b!).forEach((x, d) => expect(x).toBeCloseTo(c![d]!, 5));
    expect(cosineSimilarity(a!, b!)).toBeLessThan(0.99);
    const q = await prefixed.embedQuery("personal data");
    const [qc] = await plain.embedDocuments(["highway personal data"]);
    Array.from(q).forEach((x, d) => expect(x).toBeCloseTo(qc![d]!, 5));
  });

  it("a text of only unknown words embeds to the zero vector, never NaN", async () => {
    const e = await createEmbedder({ provider: "transformers", model_path: modelDir });
    const [v] = await e.embedDocuments(["zzz qqq"]);
    expect(Array.from(v!).every((x) => x === 0)).toBe(true);
    expect(norm(await e.embedQuery("§§ —"))).toBe(0);
  });

  it("normalize: false returns the raw mean of the token vectors", async () => {
    const raw = await createEmbedder({ provider: "transformers", model_path: modelDir, normalize: false });
    expect(raw.id).toBe("transformers:tiny-minilm:fp32:mean:raw");
    const [v] = await raw.embedDocuments(["right to erasure of personal data"]);
    expect(Math.abs(norm(v!) - 1)).toBeGreaterThan(0.01);
  });
});

describe("TransformersEmbedder configuration errors", () => {
  it("a missing folder is E_CONFIG naming embedding.model_path and the folder", async () => {
    const missing = join(work, "no-such-model");
    await expect(createEmbedder({ provider: "transformers", model_path: missing })).rejects.toMatchObject({
      code: "E_CONFIG",
      message: expect.stringContaining(missing),
      details: { path: "embedding.model_path" },
    });
  });

  it("a dtype whose weights the folder lacks is E_CONFIG listing the dtypes it has", async () => {
    await expect(createEmbedder({ provider: "transformers", model_path: modelDir, dtype: "q8" })).rejects.toMatchObject({
      code: "E_CONFIG",
      message: expect.stringMatching(/no onnx\/model_quantized\.onnx for embedding\.dtype q8.*onnx\/model\.onnx \(dtype: fp32\)/),
      details: { path: "embedding.dtype" },
    });
  });

  it("a folder without tokenizer.json is E_CONFIG naming the file", async () => {
    const broken = join(work, "broken");
    await writeTinyTransformersModel(broken, { vocabulary: VOCAB });
    await unlink(join(broken, "tokenizer.json"));
    await expect(createEmbedder({ provider: "transformers", model_path: broken })).rejects.toMatchObject({
      code: "E_CONFIG",
      message: expect.stringContaining("has no tokenizer.json"),
    });
  });

  it("embedding.dimensions that disagree with the model are E_CONFIG", async () => {
    await expect(createEmbedder({ provider: "transformers", model_path: modelDir, dimensions: 384 })).rejects.toMatchObject({
      code: "E_CONFIG",
      message: "embedding.dimensions is 384 but model tiny-minilm produces 32-dimensional vectors",
    });
  });

  it("neither name nor model_path is E_CONFIG", async () => {
    await expect(createEmbedder({ provider: "transformers" })).rejects.toMatchObject({ code: "E_CONFIG", details: { path: "embedding.name" } });
  });

  it("transformers.js not installed is E_CONFIG with the install command", async () => {
    const load = TransformersEmbedder.load({ modelPath: modelDir, importer: () => Promise.reject(new Error("Cannot find package '@huggingface/transformers'")) });
    await expect(load).rejects.toMatchObject({ code: "E_CONFIG", message: expect.stringContaining("npm install -E @huggingface/transformers@") });
  });
});

interface Hub {
  url: string;
  requests: string[];
  server: Server;
}

/** A local server speaking the Hugging Face hub's file layout: GET /{owner}/{model}/resolve/{revision}/{file}. */
async function startHub(models: Record<string, string>, status?: number): Promise<Hub> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const m = /^\/(.+?)\/resolve\/([^/]+)\/(.+)$/.exec(req.url ?? "");
    const dir = m ? models[m[1]!] : undefined;
    const file = dir && m ? join(dir, decodeURIComponent(m[3]!)) : undefined;
    if (status) {
      res.writeHead(status).end();
    } else if (file && existsSync(file)) {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(statSync(file).size) });
      if (req.method === "HEAD") res.end();
      else createReadStream(file).pipe(res);
    } else {
      res.writeHead(404, { "content-type": "text/plain" }).end("Entry not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests, server };
}

const stop = (hub: Hub) => new Promise<void>((resolve) => hub.server.close(() => resolve()));

describe("TransformersEmbedder with a hub id (a local server in the hub's file layout)", () => {
  it("downloads once into the cache, then loads offline from the cache with identical vectors", async () => {
    const hub = await startHub({ "acme/tiny-minilm": modelDir });
    const cacheDir = join(work, "cache-1");
    const progress: string[] = [];
    try {
      const e = await createEmbedder({ provider: "transformers", name: "acme/tiny-minilm", base_url: hub.url }, { cacheDir, onProgress: (m) => progress.push(m) });
      expect(e.id).toBe("transformers:acme/tiny-minilm:fp32:mean");
      expect(hub.requests.some((r) => r.includes("/acme/tiny-minilm/resolve/main/onnx/model.onnx"))).toBe(true);
      expect(hub.requests.some((r) => r.includes("/resolve/main/tokenizer.json"))).toBe(true);
      expect(existsSync(join(cacheDir, "transformers"))).toBe(true);
      const [fromHub] = await e.embedDocuments(["right to erasure"]);
      const local = await createEmbedder({ provider: "transformers", model_path: modelDir });
      const [fromFolder] = await local.embedDocuments(["right to erasure"]);
      Array.from(fromHub!).forEach((x, d) => expect(x).toBeCloseTo(fromFolder![d]!, 6));
      expect(progress.join("\n")).toMatch(/model\.onnx/);

      await stop(hub);
      const offline = await createEmbedder({ provider: "transformers", name: "acme/tiny-minilm", base_url: hub.url }, { cacheDir, transformers: { offline: true } });
      const [again] = await offline.embedDocuments(["right to erasure"]);
      Array.from(again!).forEach((x, d) => expect(x).toBeCloseTo(fromHub![d]!, 6));
    } finally {
      if (hub.server.listening) await stop(hub);
    }
  });

  it("an unreachable hub is E_EMBEDDING after the retries, telling how to use a local folder", async () => {
    const hub = await startHub({});
    await stop(hub); // the port is now closed
    const progress: string[] = [];
    const load = createEmbedder(
      { provider: "transformers", name: "acme/tiny-minilm", base_url: hub.url },
      { cacheDir: join(work, "cache-2"), onProgress: (m) => progress.push(m), transformers: { downloadAttempts: 2 } },
    );
    await expect(load).rejects.toMatchObject({
      code: "E_EMBEDDING",
      retryable: true,
      message: expect.stringMatching(/could not fetch the weights of transformers model "acme\/tiny-minilm".*set embedding\.model_path/s),
    });
    expect(progress.filter((m) => m.includes("retrying"))).toHaveLength(1);
  });

  it("a model the hub does not have (404) fails at once, not retried", async () => {
    const hub = await startHub({});
    try {
      const load = createEmbedder({ provider: "transformers", name: "acme/missing" , base_url: hub.url }, { cacheDir: join(work, "cache-3"), transformers: { downloadAttempts: 3 } });
      await expect(load).rejects.toMatchObject({ code: "E_EMBEDDING", retryable: false });
      const configFetches = hub.requests.filter((r) => r.endsWith("/config.json"));
      expect(configFetches.length).toBeGreaterThan(0);
      expect(configFetches.length).toBeLessThanOrEqual(2);
    } finally {
      await stop(hub);
    }
  });

  it("offline with an empty cache is E_EMBEDDING naming the cache", async () => {
    const cacheDir = join(work, "cache-4");
    await expect(
      createEmbedder({ provider: "transformers", name: "acme/tiny-minilm" }, { cacheDir, transformers: { offline: true } }),
    ).rejects.toMatchObject({ code: "E_EMBEDDING", retryable: false, message: expect.stringContaining(join(cacheDir, "transformers")) });
  });
});
