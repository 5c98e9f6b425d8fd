import { fileURLToPath } from "node:url";
import { HierdocError, type RerankCandidate, type RerankScore, type Reranker } from "@hierdoc/core";
import { FeatureExtractor, type FeatureRow } from "./features.js";
import { loadRankerModel, scoreRow, type RankerModel } from "./ranker-model.js";

/** The model shipped with the package: trained on ObliQA dev only (see the package README). */
export const DEFAULT_RANKER_MODEL_PATH: string = fileURLToPath(new URL("../models/obliqa-dev.v1.json", import.meta.url));

/** Options of {@link LearnedReranker}: a model object, or a file to load (default the shipped model). */
export interface LearnedRerankerOptions {
  model?: RankerModel;
  modelPath?: string;
}

/**
 * Offline learned reranker: scores each fused candidate with a small model (linear or gradient-boosted
 * trees, from a versioned `hierdoc-ranker` JSON file) over the same features the lexical reranker uses.
 * Deterministic; ties keep the fused order.
 * @throws HierdocError E_CONFIG (constructor) when the model file is missing or invalid.
 */
export class LearnedReranker implements Reranker {
  readonly id: string;
  readonly model: RankerModel;
  private readonly extractor = new FeatureExtractor();

  constructor(options: LearnedRerankerOptions = {}) {
    this.model = options.model ?? loadRankerModel(options.modelPath ?? DEFAULT_RANKER_MODEL_PATH);
    this.id = `learned:${this.model.kind}`;
  }

  /**
   * Scores every candidate and returns the best `topN` (score = model output; reasons = the model's inputs).
   * @throws HierdocError E_INVALID_ARGUMENT when `topN` is not a positive integer.
   */
  async rerank(query: string, candidates: RerankCandidate[], topN: number): Promise<RerankScore[]> {
    if (!Number.isInteger(topN) || topN < 1) throw new HierdocError("E_INVALID_ARGUMENT", `topN must be a positive integer (got ${topN})`);
    const rows = this.extractor.extract(query, candidates);
    return this.order(candidates, rows, topN);
  }

  /**
   * Scores candidates from precomputed feature rows, best first (fused order breaks ties); the best `topN`
   * (default all) carry their feature values as `reasons`.
   */
  order(candidates: readonly RerankCandidate[], rows: readonly FeatureRow[], topN = candidates.length): RerankScore[] {
    const scratch = new Float64Array(this.model.features.length);
    const scored = candidates.map((c, i) => ({ i, id: c.id, score: scoreRow(this.model, rows[i], scratch) }));
    scored.sort((a, b) => b.score - a.score || a.i - b.i);
    return scored.slice(0, topN).map((x) => ({ id: x.id, score: x.score, reasons: reasonsOf(this.model, rows[x.i]) }));
  }
}

function reasonsOf(model: RankerModel, row: FeatureRow): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of model.features) out[f] = Math.round(row[f] * 1000) / 1000;
  return out;
}
