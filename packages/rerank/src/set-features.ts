import type { RerankCandidate } from "@hierdoc/core";

/** Names of the candidate-set features: where a candidate's document, section and neighbours stand among the candidates. */
export const SET_FEATURE_NAMES = ["docShare", "docBest", "docScore", "docRank", "neighbours", "neighbourFused", "sectionBest"] as const;

/** One feature name of {@link SET_FEATURE_NAMES}. */
export type SetFeatureName = (typeof SET_FEATURE_NAMES)[number];

const CHUNK_MARK = "_chunk_";
/** What the regex's `.` does not match: a document part with one of these is no tool chunk id. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * The document key and position of a chunk id. Tool chunk ids are `<source path>_chunk_<n>`; an id of any
 * other shape is its own document with no position (its document and neighbour features are then those of
 * a lone chunk).
 */
export function chunkPlace(id: string): { doc: string; seq: number | null } {
  // The last "_chunk_" followed by ASCII digits to the end (as /^(.*)_chunk_(\d+)$/ reads it, without the regex).
  const at = id.lastIndexOf(CHUNK_MARK);
  const from = at + CHUNK_MARK.length;
  if (at < 0 || from === id.length || LINE_BREAK.test(id.slice(0, at))) return { doc: id, seq: null };
  for (let i = from; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return { doc: id, seq: null };
  }
  return { doc: id.slice(0, at), seq: Number(id.slice(from)) };
}

/** Per document among the candidates: count, best fused rank, summed fused score, best score per position and the scores per section. */
interface DocStats {
  count: number;
  best: number;
  score: number;
  bySeq: Map<number, number>;
  sections: Map<string, number[]>;
}

/**
 * Features of each candidate from the other candidates: the share of candidates from its document, the
 * best fused rank in its document (reciprocal), its document's share of the summed fused score and that
 * document's rank by it (reciprocal), how many of its two neighbouring chunks are candidates and the best
 * normalised fused score among them, and the best normalised fused score of another chunk of its section.
 * `fusedNorm` is each candidate's min-max normalised fused score, `fusedRank` its (tie-collapsed) rank.
 */
export function setFeatures(candidates: readonly RerankCandidate[], fusedNorm: readonly number[], fusedRank: readonly number[]): Array<Record<SetFeatureName, number>> {
  const places = candidates.map((c) => chunkPlace(c.id));
  // Keyed by document, then position / section (no concatenated string keys per candidate).
  const docs = new Map<string, DocStats>();
  const docOf: DocStats[] = [];
  let total = 0;
  places.forEach((p, i) => {
    let d = docs.get(p.doc);
    if (d === undefined) docs.set(p.doc, (d = { count: 0, best: Infinity, score: 0, bySeq: new Map(), sections: new Map() }));
    docOf.push(d);
    d.count++;
    d.best = Math.min(d.best, fusedRank[i]);
    d.score += fusedNorm[i];
    total += fusedNorm[i];
    if (p.seq !== null) d.bySeq.set(p.seq, Math.max(d.bySeq.get(p.seq) ?? 0, fusedNorm[i]));
    const top = d.sections.get(candidates[i].sectionId);
    if (top === undefined) d.sections.set(candidates[i].sectionId, [fusedNorm[i]]);
    else top.push(fusedNorm[i]);
  });
  // A document's rank: 1 + the documents with a higher summed score (tied documents share a rank, so the
  // rank never depends on candidate order).
  const scores = [...docs.values()].map((d) => d.score);
  const docRankOf = (score: number): number => 1 + scores.filter((s) => s > score).length;
  const others = Math.max(1, candidates.length - 1);
  return places.map((p, i) => {
    const d = docOf[i];
    let neighbours = 0;
    let neighbourFused = 0;
    if (p.seq !== null) {
      for (const s of [p.seq - 1, p.seq + 1]) {
        const v = d.bySeq.get(s);
        if (v === undefined) continue;
        neighbours++;
        neighbourFused = Math.max(neighbourFused, v);
      }
    }
    const mates = d.sections.get(candidates[i].sectionId)!;
    let sectionBest = 0;
    let skipped = false;
    for (const v of mates) {
      if (!skipped && v === fusedNorm[i]) skipped = true;
      else sectionBest = Math.max(sectionBest, v);
    }
    return {
      docShare: (d.count - 1) / others,
      docBest: 1 / d.best,
      docScore: total > 0 ? d.score / total : 0,
      docRank: 1 / docRankOf(d.score),
      neighbours: neighbours / 2,
      neighbourFused,
      sectionBest,
    };
  });
}
