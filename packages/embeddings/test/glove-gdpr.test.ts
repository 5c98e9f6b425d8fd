import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { GloveEmbedder, HashEmbedder, cosineSimilarity } from "@hierdoc/embeddings";
import type { Embedder } from "@hierdoc/core";

const here = dirname(fileURLToPath(import.meta.url));
const gdpr = resolve(here, "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
const cacheDir = join(tmpdir(), "hierdoc-embeddings-jest-cache");
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
