import type { RerankCandidate } from "@hierdoc/core";

/** Names of the candidate-set features: where a candidate's document, section and neighbours stand among the candidates. */
export const SET_FEATURE_NAMES = ["docShare", "docBest", "docScore", "docRank", "neighbours", "neighbourFused", "sectionBest"] as const;

/** One feature name of {@link SET_FEATURE_NAMES}. */
export type SetFeatureName = (typeof SET_FEATURE_NAMES)[number];

const CHUNK_SUFFIX = /^(.*)_chunk_(\d+)$/;

/**
 * The document key and position of a chunk id. Tool chunk ids are `<source path>_chunk_<n>`; an id of any
 * other shape is its own document with no position (its document and neighbour features are then those of
 * a lone chunk).
 */
export function chunkPlace(id: string): { doc: string; seq: number | null } {
  const m = CHUNK_SUFFIX.exec(id);
  return m ? { doc: m[1], seq: Number(m[2]) } : { doc: id, seq: null };
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
  const docs = new Map<string, { count: number; best: number; score: number }>();
  const bySeq = new Map<string, number>();
  const sectionTop = new Map<string, number[]>();
  let total = 0;
  places.forEach((p, i) => {
    const d = docs.get(p.doc) ?? { count: 0, best: Infinity, score: 0 };
    d.count++;
    d.best = Math.min(d.best, fusedRank[i]);
    d.score += fusedNorm[i];
    total += fusedNorm[i];
    docs.set(p.doc, d);
    if (p.seq !== null) bySeq.set(`${p.doc}\u0000${p.seq}`, Math.max(bySeq.get(`${p.doc}\u0000${p.seq}`) ?? 0, fusedNorm[i]));
    const key = `${p.doc}\u0000${candidates[i].sectionId}`;
    const top = sectionTop.get(key) ?? [];
    top.push(fusedNorm[i]);
    sectionTop.set(key, top);
  });
  // A document's rank: 1 + the documents with a higher summed score (tied documents share a rank, so the
  // rank never depends on candidate order).
  const scores = [...docs.values()].map((d) => d.score);
  const docRankOf = (score: number): number => 1 + scores.filter((s) => s > score).length;
  const others = Math.max(1, candidates.length - 1);
  return places.map((p, i) => {
    const d = docs.get(p.doc)!;
    let neighbours = 0;
    let neighbourFused = 0;
    if (p.seq !== null) {
      for (const s of [p.seq - 1, p.seq + 1]) {
        const v = bySeq.get(`${p.doc}\u0000${s}`);
        if (v === undefined) continue;
        neighbours++;
        neighbourFused = Math.max(neighbourFused, v);
      }
    }
    const mates = sectionTop.get(`${p.doc}\u0000${candidates[i].sectionId}`)!;
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
