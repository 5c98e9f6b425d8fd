import { HierdocError, type RerankCandidate, type RerankScore, type Reranker } from "@hierdoc/core";
import { FeatureExtractor, type FeatureRow } from "./features.js";

/** Weights of the {@link LexicalReranker}'s linear combination (all signals are in [0, 1]). */
export interface LexicalWeights {
  /** Min-max normalised fused score over the candidates. */
  fused: number;
  /** Reciprocal fused rank, 1/rank. */
  rank: number;
  /** Candidate-set-IDF-weighted share of query terms present in the chunk. */
  coverage: number;
  /** Query-term proximity: covered terms over the width of the smallest window holding them. */
  proximity: number;
  /** Share of the query's bigrams and trigrams (stopwords skipped) found in the chunk. */
  phrase: number;
  /** Share of query terms in the section title. */
  title: number;
  /** Share of query terms in the parent chain. */
  chain: number;
  /** Share of the query's defined terms that the chunk uses. */
  definitions: number;
  /** A section id named in the query is the chunk's section (1) or mentioned in its text (0.5). */
  sectionId: number;
}

/**
 * Weights tuned on ObliQA dev (the only split available here; coordinate ascent on MAP@10 over 50 fused
 * candidates of the offline hybrid search). Title and section-id signals did not help there (ObliQA
 * questions rarely name a section) and are off; see the package README for the numbers.
 */
export const DEFAULT_LEXICAL_WEIGHTS: Readonly<LexicalWeights> = Object.freeze({
  fused: 1,
  rank: 0,
  coverage: 1,
  proximity: 0.75,
  phrase: 1.5,
  title: 0,
  chain: 0.3,
  definitions: 0.3,
  sectionId: 0,
});

/** Options of {@link LexicalReranker}. */
export interface LexicalRerankerOptions {
  weights?: Partial<LexicalWeights>;
}

/**
 * Offline reranker: re-scores fused candidates with lexical signals fusion does not see (term proximity,
 * phrase matches, section title and parent chain, defined terms, section-id mentions) blended with the
 * fused score and rank in a linear combination. Pure computation: no I/O, no model.
 */
export class LexicalReranker implements Reranker {
  readonly id = "lexical";
  readonly weights: Readonly<LexicalWeights>;
  /** Shared feature computation (see ./features.ts); the lexical signals are its first nine features. */
  private readonly extractor = new FeatureExtractor();

  constructor(options: LexicalRerankerOptions = {}) {
    this.weights = Object.freeze({ ...DEFAULT_LEXICAL_WEIGHTS, ...options.weights });
  }

  /**
   * Scores every candidate and returns the best `topN`, each with its signals as `reasons`.
   * @throws HierdocError E_INVALID_ARGUMENT when `topN` is not a positive integer.
   */
  async rerank(query: string, candidates: RerankCandidate[], topN: number): Promise<RerankScore[]> {
    if (!Number.isInteger(topN) || topN < 1) throw new HierdocError("E_INVALID_ARGUMENT", `topN must be a positive integer (got ${topN})`);
    return this.combine(candidates, this.signalsFor(query, candidates)).slice(0, topN);
  }

  /** Scores candidates from precomputed {@link LexicalReranker.signalsFor} vectors, best first. */
  combine(candidates: RerankCandidate[], signals: Array<Record<keyof LexicalWeights, number>>): RerankScore[] {
    const w = this.weights;
    const keys = Object.keys(w) as Array<keyof LexicalWeights>;
    const scored = candidates.map((c, i): RerankScore => {
      let score = 0;
      for (const key of keys) score += w[key] * signals[i][key];
      return { id: c.id, score, reasons: roundAll(signals[i]) };
    });
    return scored.sort((a, b) => b.score - a.score);
  }

  /** Every signal of every candidate for `query`, each in [0, 1] (the weights are not applied). */
  signalsFor(query: string, candidates: RerankCandidate[]): Array<Record<keyof LexicalWeights, number>> {
    return this.extractor.extract(query, candidates).map((f) => pick(f, LEXICAL_KEYS));
  }
}

const LEXICAL_KEYS: ReadonlyArray<keyof LexicalWeights> = Object.keys(DEFAULT_LEXICAL_WEIGHTS) as Array<keyof LexicalWeights>;

function pick(row: FeatureRow, keys: ReadonlyArray<keyof LexicalWeights>): Record<keyof LexicalWeights, number> {
  const out = {} as Record<keyof LexicalWeights, number>;
  for (const k of keys) out[k] = row[k];
  return out;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function roundAll(s: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, round(v)]));
}
