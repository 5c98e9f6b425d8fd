import { readFileSync } from "node:fs";
import type { StoreRecord } from "../interfaces.js";
import { makeRecord } from "./fixtures.js";

const STOP = new Set(["the", "of", "to", "and", "a", "in", "or", "for", "be", "by", "on", "that", "which", "with", "as", "is", "an", "shall", "this", "where", "it", "are", "not", "from", "its", "any", "at"]);

/**
 * A toy lexical embedder for store smoke tests only: hashed, log-weighted bag of words (stop words
 * dropped), L2-normalised. It makes the dense leg depend on the text without a model.
 */
export function lexicalHashVector(text: string, dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  for (const token of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (STOP.has(token)) continue;
    let h = 2166136261;
    for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619);
    v[(h >>> 0) % dimensions] += 1;
  }
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    v[i] = v[i] > 0 ? 1 + Math.log(v[i]) : 0;
    norm += v[i] * v[i];
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dimensions; i++) v[i] /= norm;
  return v;
}

/**
 * The articles of the GDPR markdown at `markdownPath` (`../shared/corpora/gdpr/gdpr_2016_679.md`) as store
 * records, one per article (section id "Article N"), with {@link lexicalHashVector} vectors.
 */
export function gdprArticleRecords(markdownPath: string, dimensions: number): StoreRecord[] {
  const text = readFileSync(markdownPath, "utf8");
  const heading = /^#{3,4} (Article (\d+)) — (.*)$/gm;
  const starts = [...text.matchAll(heading)];
  return starts.map((m, i) => {
    const start = m.index as number;
    const end = i + 1 < starts.length ? (starts[i + 1].index as number) : text.length;
    const body = text.slice(start, end).split(/^## /m)[0];
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
    return { record, vector: lexicalHashVector(body, dimensions) };
  });
}
