import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { StoreRecord } from "@hierdoc/core";
import { makeRecord, normalize } from "@hierdoc/core/testing";

/** The GDPR in Markdown from the shared corpora (`../shared/corpora` from the repository root). */
export const GDPR_MD = join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
export const HAS_GDPR = existsSync(GDPR_MD);

const STOP = new Set("the of to and a in or for be by on that which with as is an shall this where it are not from its any at".split(" "));

function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));
}

function slot(token: string, dimensions: number): number {
  let h = 2166136261;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
  return (h >>> 0) % dimensions;
}

/**
 * Test-only lexical embedder (no model can run in adapter tests): hashed TF-IDF over a fixed corpus,
 * `(1 + ln tf) · ln(N / df)`, L2-normalised.
 */
export class TfIdfEmbedder {
  private readonly df = new Map<string, number>();
  private readonly n: number;

  constructor(
    corpus: string[],
    readonly dimensions: number,
  ) {
    this.n = corpus.length;
    for (const text of corpus) for (const t of new Set(tokens(text))) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  embed(text: string): Float32Array {
    const tf = new Map<string, number>();
    for (const t of tokens(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
    const v = new Float32Array(this.dimensions);
    for (const [t, count] of tf) v[slot(t, this.dimensions)] += (1 + Math.log(count)) * Math.log(this.n / (this.df.get(t) ?? 1));
    return normalize(v);
  }
}

/**
 * One store record per GDPR article (`#### Article N — Title` headings), section id "Article N", embedded
 * with a {@link TfIdfEmbedder} over the articles, which is returned for embedding queries.
 */
export function gdprArticles(dimensions: number): { records: StoreRecord[]; embedder: TfIdfEmbedder } {
  const text = readFileSync(GDPR_MD, "utf8");
  const starts = [...text.matchAll(/^#{3,4} (Article (\d+)) — (.*)$/gm)];
  const bodies = starts.map((m, i) => {
    const start = m.index as number;
    const end = i + 1 < starts.length ? (starts[i + 1].index as number) : text.length;
    return text.slice(start, end).split(/^#{1,2} /m)[0];
  });
  const embedder = new TfIdfEmbedder(bodies, dimensions);
  const records = starts.map((m, i) => {
    const start = m.index as number;
    const body = bodies[i];
    const record = makeRecord(i, {
      id: `gdpr.md_chunk_${i}`,
      sourcePath: "gdpr.md",
      content: body,
      start,
      end: start + body.length,
      sectionId: m[1],
      sectionTitle: m[3],
      context: "",
      indexedText: body,
    });
    return { record, vector: embedder.embed(body) };
  });
  return { records, embedder };
}
