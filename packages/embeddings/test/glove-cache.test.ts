import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  GLOVE_CACHE_VERSION,
  GloveEmbedder,
  decodeGloveCache,
  encodeGloveCache,
  gloveCachePath,
  quantizeRows,
} from "@hierdoc/embeddings";

// A tiny source in the wink-embeddings layout: {dimensions, words, vectors: {word: [dims…, norm, index]}}.
const WORDS = ["the", "data", "erase", "delete", "road", "bridge", "e-mail", "naïve"];
const RAW: number[][] = WORDS.map((_, i) => [Math.sin(i + 1) * 2, Math.cos(i * 3) * 1.5, (i % 3) - 1, 0.25 * i]);

async function writeSource(dir: string): Promise<string> {
  const vectors: Record<string, number[]> = {};
  WORDS.forEach((w, i) => (vectors[w] = [...RAW[i], Math.hypot(...RAW[i]), i]));
  const path = join(dir, "tiny-embeddings.json");
  await writeFile(path, JSON.stringify({ precision: 8, l2NormIndex: 4, wordIndex: 5, size: WORDS.length, dimensions: 4, words: WORDS, vectors, unkVector: [0, 0, 0, 0, 0, -1] }));
  return path;
}

describe("GloVe binary cache", () => {
  let dir: string;
  let sourcePath: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "hierdoc-glove-cache-"));
    sourcePath = await writeSource(dir);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("round-trips words, scales and int8 values, within half a quantisation step of the source", () => {
    const matrix = quantizeRows(WORDS, 4, (i) => RAW[i]);
    const decoded = decodeGloveCache(encodeGloveCache(matrix));
    expect(WORDS.map((_, i) => decoded.vocabulary.wordAt(i))).toEqual(WORDS);
    expect(WORDS.map((w) => decoded.vocabulary.rowOf(w))).toEqual(WORDS.map((_, i) => i));
    expect(decoded.vocabulary.rowOf("naive")).toBeUndefined();
    expect(decoded.vocabulary.rowOf("dat")).toBeUndefined();
    expect(decoded.vocabulary.rowOf("datas")).toBeUndefined();
    expect(Array.from(decoded.values)).toEqual(Array.from(matrix.values));
    expect(Array.from(decoded.scales)).toEqual(Array.from(matrix.scales));
    RAW.forEach((row, i) =>
      row.forEach((x, d) => expect(Math.abs(decoded.values[i * 4 + d] * decoded.scales[i] - x)).toBeLessThanOrEqual(decoded.scales[i] / 2 + 1e-6)),
    );
  });

  it("converts once, then loads from the cache with identical vectors", async () => {
    const oldVersion = gloveCachePath({ cacheDir: dir, sourcePath }).replace(/\.v\d+\.bin$/, ".v1.bin");
    await writeFile(oldVersion, "format 1 cache");
    const progress: string[] = [];
    const first = await GloveEmbedder.load({ cacheDir: dir, sourcePath, onProgress: (m) => progress.push(m) });
    expect(progress.some((m) => m.includes("building it once"))).toBe(true);
    expect(existsSync(oldVersion)).toBe(false);
    await rm(sourcePath);
    const second = await GloveEmbedder.load({ cacheDir: dir, sourcePath, onProgress: (m) => progress.push(`again ${m}`) });
    expect(progress.filter((m) => m.startsWith("again"))).toEqual([]);
    expect(second.id).toBe(first.id);
    expect(first.id).toMatch(/^glove-sif:custom-[0-9a-f]{12}:a=0.0003:v1$/);
    for (const text of ["erase the data", "road bridge", "E-mail naïve"]) {
      expect(Array.from(second.embedSync(text))).toEqual(Array.from(first.embedSync(text)));
    }
    expect(Array.from(first.wordVector("bridge")!).map((x) => Number(x.toFixed(1)))).toEqual(RAW[5].map((x) => Number(x.toFixed(1))));
  });

  it.each([
    ["truncated", async (file: string) => truncate(file, (await stat(file)).size - 3), /truncated/],
    ["bit-flipped", async (file: string) => flipByte(file, -2), /checksum/],
    ["wrong version", async (file: string) => patchU32(file, 8, GLOVE_CACHE_VERSION + 1), /version/],
    ["garbage", async (file: string) => writeFile(file, "not a cache"), /truncated header|bad magic/],
  ])("detects a %s cache and rebuilds it", async (_name, damage, reason) => {
    await GloveEmbedder.load({ cacheDir: dir, sourcePath });
    const file = gloveCachePath({ cacheDir: dir, sourcePath });
    const good = await readFile(file);
    await damage(file);
    expect(() => decodeGloveCache(readFileSync(file))).toThrow(reason);
    const progress: string[] = [];
    const rebuilt = await GloveEmbedder.load({ cacheDir: dir, sourcePath, onProgress: (m) => progress.push(m) });
    expect(progress[0]).toMatch(/invalid: .*; rebuilding$/);
    expect((await readFile(file)).equals(good)).toBe(true);
    expect(rebuilt.size).toBe(WORDS.length);
  });

  it("survives concurrent conversions into the same folder and leaves no temp files", async () => {
    const loads = await Promise.all([1, 2, 3].map(() => GloveEmbedder.load({ cacheDir: dir, sourcePath })));
    expect(new Set(loads.map((l) => l.id)).size).toBe(1);
    const files = await readdir(dir);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(() => decodeGloveCache(readFileSync(gloveCachePath({ cacheDir: dir, sourcePath })))).not.toThrow();
  });

  it("still loads (from the converted source) when the cache folder cannot be written", async () => {
    const blocker = join(dir, "not-a-folder");
    await writeFile(blocker, "x");
    const progress: string[] = [];
    const e = await GloveEmbedder.load({ cacheDir: join(blocker, "sub"), sourcePath, onProgress: (m) => progress.push(m) });
    expect(e.size).toBe(WORDS.length);
    expect(progress.at(-1)).toMatch(/cannot write GloVe cache .*continuing without a cache/);
  });

  it("fails with E_PARSE on a malformed source", async () => {
    await writeFile(sourcePath, "{ not json");
    await expect(GloveEmbedder.load({ cacheDir: dir, sourcePath })).rejects.toMatchObject({ code: "E_PARSE" });
  });
});
async function flipByte(file: string, at: number): Promise<void> {
  const bytes = await readFile(file);
  const i = at < 0 ? bytes.length + at : at;
  bytes[i] ^= 0xff;
  await writeFile(file, bytes);
}
async function patchU32(file: string, at: number, value: number): Promise<void> {
  const bytes = await readFile(file);
  bytes.writeUInt32LE(value, at);
  await writeFile(file, bytes);
}

describe("GloveVocabulary", () => {
  it("finds every word of a large vocabulary (with hash collisions) and nothing else", async () => {
    const { GloveVocabulary } = await import("@hierdoc/embeddings");
    const words = Array.from({ length: 50_000 }, (_, i) => (i % 7 === 0 ? `mot-${i}-é` : `w${i.toString(36)}`));
    const vocabulary = GloveVocabulary.fromWords([...words, words[10]]);
    expect(vocabulary.size).toBe(50_001);
    expect(words.every((w, i) => vocabulary.rowOf(w) === i)).toBe(true);
    expect(vocabulary.rowOf(words[10])).toBe(10);
    expect(vocabulary.rowOf("w")).toBeUndefined();
    const index = new Map(words.map((w, i) => [w, i]));
    for (const probe of words.flatMap((w) => [w.slice(0, -1), `${w}x`])) expect(vocabulary.rowOf(probe)).toBe(index.get(probe));
    expect(vocabulary.rowOf("mot-7-e")).toBeUndefined();
    expect(vocabulary.wordAt(7)).toBe("mot-7-é");
  });

  it("never matches a prefix or extension of a stored word (tiny tables force probe collisions)", async () => {
    const { GloveVocabulary } = await import("@hierdoc/embeddings");
    for (let i = 0; i < 300; i++) {
      const vocabulary = GloveVocabulary.fromWords([`pre${i}fix`]);
      expect(vocabulary.rowOf(`pre${i}`)).toBeUndefined();
      expect(vocabulary.rowOf(`pre${i}fixes`)).toBeUndefined();
      expect(vocabulary.rowOf(`pre${i}fiX`)).toBeUndefined();
      expect(vocabulary.rowOf(`pre${i}fix`)).toBe(0);
    }
  });
});
