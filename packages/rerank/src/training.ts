import type { RerankCandidate, SearchResult } from "@hierdoc/core";
import { FeatureExtractor, type FeatureName } from "./features.js";
import { assignFolds, type TrainingGroup } from "./lambda-gradients.js";
import type { RankerModel } from "./ranker-model.js";
import { scoreVector } from "./ranker-model.js";

/**
 * The candidate the tool's rerank stage would build for a search result (same fields, same fused score and
 * rank), so a model is trained on exactly what it sees at search time.
 */
export function candidateFromResult(r: SearchResult, rank: number): RerankCandidate {
  return {
    id: r.id,
    content: r.content,
    context: r.context,
    sectionId: r.sectionId,
    sectionTitle: r.sectionTitle,
    parentChain: r.parentChain,
    definitions: r.definitions.map((d) => ({ term: d.term, definitionText: d.definitionText })),
    fusedScore: r.score,
    fusedRank: rank,
    scores: r.scores,
    ranks: r.ranks,
    chunkType: r.chunkType,
    citedSections: r.crossReferences.flatMap((x) => (x.targetSectionId && !x.external ? [x.targetSectionId] : [])),
  };
}

/** One training question: its text, the fused candidates and each candidate's graded label. */
export interface LabelledQuery {
  id: string;
  query: string;
  candidates: RerankCandidate[];
  labels: number[];
}

/** Feature vectors (in `features` order) of labelled queries, computed once and reused by every fold. */
export function toTrainingGroups(queries: readonly LabelledQuery[], features: readonly FeatureName[]): TrainingGroup[] {
  const extractor = new FeatureExtractor();
  return queries.map((q) => ({
    id: q.id,
    labels: q.labels,
    features: extractor.extract(q.query, q.candidates).map((row) => features.map((f) => row[f])),
  }));
}

/**
 * k-fold cross-validation by question ({@link assignFolds}): each fold's model is
 * trained on the other folds only. Returns every group's out-of-fold scores (candidate order).
 */
export function crossValidateScores(groups: readonly TrainingGroup[], folds: number, train: (g: readonly TrainingGroup[]) => RankerModel): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const foldOf = assignFolds(groups.map((g) => g.id), folds);
  for (let f = 0; f < folds; f++) {
    const model = train(groups.filter((g) => foldOf.get(g.id) !== f));
    for (const g of groups) if (foldOf.get(g.id) === f) out.set(g.id, g.features.map((x) => scoreVector(model, x)));
  }
  return out;
}
