import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Embedder, WorkerRecipe } from "@hierdoc/core";
import { GloveEmbedder, HashEmbedder, OpenAIEmbedder } from "@hierdoc/embeddings";

// A small source in the wink-embeddings layout: {dimensions, words, vectors: {word: [dims…, norm, index]}}.
const WORDS = ["the", "controller", "shall", "erase", "personal", "data", "without", "delay", "e-mail", "naïve"];

async function writeSource(dir: string): Promise<string> {
  const vectors: Record<string, number[]> = {};
  WORDS.forEach((w, i) => {
    const row = [Math.sin(i + 1) * 2, Math.cos(i * 3) * 1.5, (i % 3) - 1, 0.25 * i];
    vectors[w] = [...row, Math.hypot(...row), i];
  });
  const path = join(dir, "small-embeddings.json");
  await writeFile(path, JSON.stringify({ precision: 8, l2NormIndex: 4, wordIndex: 5, size: WORDS.length, dimensions: 4, words: WORDS, vectors, unkVector: [0, 0, 0, 0, 0, -1] }));
  return path;
}

/** Builds a copy the way an ingest worker does: the recipe as structured-cloned data, the factory by name from its module. */
async function buildCopy(recipe: WorkerRecipe): Promise<Embedder> {
  const data = structuredClone(recipe);
  const mod = (await import(data.module)) as Record<string, (options: unknown) => Embedder | Promise<Embedder>>;
  expect(typeof mod[data.factory]).toBe("function");
  return mod[data.factory]!(data.options);
}

const TEXTS = ["The controller shall erase personal data without undue delay.", "e-mail naïve data", "nothing known here"];
const bytesOf = (vs: Float32Array[]) => vs.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex"));

describe("embedders that ingest workers can rebuild (workerRecipe)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "hierdoc-recipes-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("GloVe: a copy from the recipe loads the same cache and embeds bit for bit the same, after a conversion and after a cache load", async () => {
    const sourcePath = await writeSource(dir);
    const converted = await GloveEmbedder.load({ cacheDir: dir, sourcePath, sifA: 1e-3 });
    const cached = await GloveEmbedder.load({ cacheDir: dir, sourcePath, sifA: 1e-3 });
    for (const original of [converted, cached]) {
      expect(original.workerRecipe).toEqual({ module: "@hierdoc/embeddings", factory: "gloveEmbedderFromRecipe", options: { cacheDir: dir, sourcePath, sifA: 1e-3 } });
      const copy = await buildCopy(original.workerRecipe!);
      expect([copy.id, copy.dimensions]).toEqual([original.id, original.dimensions]);
      expect(bytesOf(await copy.embedDocuments(TEXTS))).toEqual(bytesOf(await original.embedDocuments(TEXTS)));
    }
    expect(bytesOf(await converted.embedDocuments(TEXTS))[0]).not.toEqual(bytesOf(await converted.embedDocuments(TEXTS))[1]);
  });

  it("GloVe without a cache file (the folder cannot be written) declares no recipe: a worker would convert the source again", async () => {
    const sourcePath = await writeSource(dir);
    const notAFolder = join(dir, "file");
    await writeFile(notAFolder, "x");
    const embedder = await GloveEmbedder.load({ cacheDir: notAFolder, sourcePath });
    expect(embedder.workerRecipe).toBeUndefined();
    expect((await embedder.embedDocuments(TEXTS)).length).toBe(3);
  });

  it("hash: a copy from the recipe has the same id, dimensions and vectors", async () => {
    const original = new HashEmbedder({ dimensions: 48 });
    const copy = await buildCopy(original.workerRecipe);
    expect([copy.id, copy.dimensions]).toEqual([original.id, 48]);
    expect(bytesOf(await copy.embedDocuments(TEXTS))).toEqual(bytesOf(await original.embedDocuments(TEXTS)));
  });

  it("an API embedder declares none (it batches and is rate-limited in the ingesting thread)", () => {
    const api: Embedder = new OpenAIEmbedder({ provider: "openai", model: "text-embedding-3-small", apiKey: "sk-test" });
    expect(api.workerRecipe).toBeUndefined();
  });
});
