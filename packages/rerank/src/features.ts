import type { RerankCandidate } from "@hierdoc/core";
import { SET_FEATURE_NAMES, setFeatures } from "./set-features.js";
import { QueryTerms } from "./query-terms.js";
import { ChunkAnalyses, type ChunkAnalysis } from "./chunk-analyses.js";
import { stems } from "./text.js";

/**
 * Names of the per-candidate features, in a fixed order. The lexical reranker weights the first nine; the
 * learned reranker's model names the ones it uses, so a model keeps working when features are added.
 * Every feature is a number computed from the query and the whole candidate set (no I/O).
 */
export const FEATURE_NAMES = [
  // The lexical reranker's signals, each in [0, 1].
  "fused",
  "rank",
  "coverage",
  "proximity",
  "phrase",
  "title",
  "chain",
  "definitions",
  "sectionId",
  // Per-leg evidence of the fused hit.
  "semantic",
  "semanticNorm",
  "semanticRank",
  "keywordNorm",
  "keywordRank",
  "exact",
  // Text and structure.
  "termShare",
  "contextShare",
  "length",
  "depth",
  "typeDefinition",
  "typeRequirement",
  "typeHeader",
  // Relations between candidates.
  "citedBy",
  "cites",
  "sectionMates",
  // Query-level (useful to trees only: a linear model ranks within one query).
  "queryTerms",
  // Where the candidate's document, neighbours and section stand among the candidates (set-features.ts).
  ...SET_FEATURE_NAMES,
  // More lexical evidence.
  "bm25",
  "rarest",
  "numbers",
  "headingIdf",
  "run",
] as const;

/** One feature name of {@link FEATURE_NAMES}. */
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** The features of one candidate. */
export type FeatureRow = Record<FeatureName, number>;

/**
 * Computes {@link FEATURE_NAMES} for every candidate of a query. Shared by the lexical reranker (its
 * signals) and the learned reranker (its model inputs), so both see the same numbers. Each chunk's texts
 * are analysed once into stem ids and kept in a bounded cache keyed by chunk id ({@link ChunkAnalyses});
 * a query's stems become slots ({@link QueryTerms}), so each candidate costs one pass over its ids.
 */
export class FeatureExtractor {
  private readonly analyses = new ChunkAnalyses();
  /** Slot of each stem id for the query being scored, -1 elsewhere (grown with the vocabulary). */
  private slots = new Int32Array(0);

  /** Features of each candidate, in candidate order. Candidates without leg scores get 0 for those. */
  extract(query: string, candidates: readonly RerankCandidate[]): FeatureRow[] {
    const vocabulary = this.analyses.vocabulary;
    const q = stems(query);
    const terms = new QueryTerms(q, vocabulary);
    const analysed = candidates.map((c) => this.analyses.of(c));
    if (this.slots.length < vocabulary.size) this.slots = new Int32Array(Math.max(1024, vocabulary.size * 2)).fill(-1);
    terms.bind(this.slots);
    try {
      return this.rows(query, q, terms, candidates, analysed);
    } finally {
      terms.unbind();
    }
  }

  private rows(
    query: string,
    q: string[],
    terms: QueryTerms,
    candidates: readonly RerankCandidate[],
    analysed: ChunkAnalysis[],
  ): FeatureRow[] {
    const n = candidates.length;
    const d = terms.size;
    // One pass per candidate: query-stem counts, phrases, the shortest window.
    const tf = new Int32Array(n * d);
    const phrase = new Float64Array(n);
    const proximity = new Float64Array(n);
    const run = new Float64Array(n);
    const covered = new Int32Array(n);
    const bigramWeight = terms.bigramOfEntry.length;
    const phraseTotal = bigramWeight + 2 * terms.trigramOfEntry.length;
    for (let i = 0; i < n; i++) {
      const s = terms.scan(analysed[i].ids);
      tf.set(s.tf, i * d);
      covered[i] = s.covered;
      proximity[i] = s.covered >= 2 ? (s.covered / s.width) * (s.covered / d) : 0;
      if (phraseTotal > 0) {
        let hit = 0;
        for (const b of terms.bigramOfEntry) if (s.bigrams[b] === 1) hit += 1;
        for (const t of terms.trigramOfEntry) if (s.trigrams[t] === 1) hit += 2;
        phrase[i] = hit / phraseTotal;
      }
      let streak = 0;
      let best = 0;
      for (const b of terms.bigramOfEntry) {
        streak = s.bigrams[b] === 1 ? streak + 1 : 0;
        best = Math.max(best, streak);
      }
      run[i] = best > 0 && q.length > 0 ? (best + 1) / q.length : 0;
    }
    // Candidate-set IDF of each query stem (BM25-style: a stem in every candidate weighs little).
    const idf = new Float64Array(d);
    let idfTotal = 0;
    let rarest = -1;
    for (let j = 0; j < d; j++) {
      let df = 0;
      for (let i = 0; i < n; i++) if (tf[i * d + j] > 0) df++;
      idf[j] = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      idfTotal += idf[j];
      if (rarest < 0 || idf[j] > idf[rarest]) rarest = j;
    }
    idfTotal ||= 1;
    const numberSlots = terms.stems.flatMap((t, j) => (/\d/.test(t) ? [j] : []));
    let lengthSum = 0;
    for (const a of analysed) lengthSum += a.ids.length;
    const avgLength = lengthSum / Math.max(1, n) || 1;
    const bm25 = new Float64Array(n);
    let bm25Max = 0;
    for (let i = 0; i < n; i++) {
      let score = 0;
      const norm = 1.2 * (0.25 + (0.75 * analysed[i].ids.length) / avgLength);
      for (let j = 0; j < d; j++) {
        const f = tf[i * d + j];
        if (f) score += (idf[j] * f * 2.2) / (f + norm);
      }
      bm25[i] = score;
      bm25Max = Math.max(bm25Max, score);
    }
    bm25Max ||= 1;

    const fused = candidates.map((c, i) => c.fusedScore ?? 1 / (i + 1));
    const fMin = Math.min(...fused);
    const fSpan = Math.max(...fused) - fMin || 1;
    const sem = candidates.map((c) => c.scores?.semantic ?? null);
    const semVals = sem.filter((x): x is number => x !== null);
    const sMin = semVals.length ? Math.min(...semVals) : 0;
    const sSpan = semVals.length ? Math.max(...semVals) - sMin || 1 : 1;
    const kwMax = Math.max(0, ...candidates.map((c) => c.scores?.keyword ?? 0)) || 1;
    const sectionCount = new Map<string, number>();
    for (const c of candidates) sectionCount.set(c.sectionId, (sectionCount.get(c.sectionId) ?? 0) + 1);
    const citedCount = new Map<string, number>();
    for (const c of candidates) for (const s of new Set(c.citedSections ?? [])) if (s !== c.sectionId) citedCount.set(s, (citedCount.get(s) ?? 0) + 1);
    const others = Math.max(1, n - 1);
    const fusedRanks = tiedRanks(fused, candidates.map((c, i) => c.fusedRank ?? i + 1));
    const kRanks = tiedRanks(candidates.map((c) => c.scores?.keyword ?? null), candidates.map((c) => c.ranks?.keyword ?? null));
    const sRanks = tiedRanks(sem, candidates.map((c) => c.ranks?.semantic ?? null));
    const fusedNorm = fused.map((f) => (f - fMin) / fSpan);
    const set = setFeatures(candidates, fusedNorm, fusedRanks.map((r, i) => r ?? i + 1));

    const sectionIds = sectionIdsIn(query);
    const queryLower = ` ${q.join(" ")} `;
    const inTitle = new Uint8Array(d);
    const inChain = new Uint8Array(d);
    const inContext = new Uint8Array(d);
    const share = (ids: Int32Array, present: number): number => (d === 0 || ids.length === 0 ? 0 : present / d);
    return candidates.map((c, i) => {
      const s = sem[i];
      const kRank = kRanks[i];
      const sRank = sRanks[i];
      const at = i * d;
      let coverage = 0;
      let numbers = 0;
      for (let j = 0; j < d; j++) if (tf[at + j] > 0) coverage += idf[j];
      for (const j of numberSlots) if (tf[at + j] > 0) numbers++;
      const a = analysed[i];
      const titleShare = share(a.titleIds, terms.presence(a.titleIds, inTitle));
      const chainShare = share(a.chainIds, terms.presence(a.chainIds, inChain));
      let headingIdf = 0;
      for (let j = 0; j < d; j++) if (inTitle[j] === 1 || inChain[j] === 1) headingIdf += idf[j];
      const row = {
        fused: fusedNorm[i],
        rank: 1 / (fusedRanks[i] ?? i + 1),
        coverage: coverage / idfTotal,
        proximity: proximity[i],
        phrase: phrase[i],
        title: titleShare,
        chain: chainShare,
        definitions: this.definitionsUsed(a, queryLower),
        sectionId: sectionIdFeature(c, a, sectionIds),
        termShare: d === 0 ? 0 : covered[i] / d,
        contextShare: c.context ? share(a.contextIds, terms.presence(a.contextIds, inContext)) : 0,
        rarest: rarest >= 0 && tf[at + rarest] > 0 ? 1 : 0,
        numbers: numberSlots.length > 0 ? numbers / numberSlots.length : 0,
        headingIdf: headingIdf / idfTotal,
        run: run[i],
        semantic: s ?? 0,
        semanticNorm: s === null ? 0 : (s - sMin) / sSpan,
        semanticRank: sRank ? 1 / sRank : 0,
        keywordNorm: (c.scores?.keyword ?? 0) / kwMax,
        keywordRank: kRank ? 1 / kRank : 0,
        exact: c.scores?.exact ? 1 : 0,
        length: Math.min(1, Math.log1p(a.ids.length) / Math.log(1000)),
        depth: Math.min(1, c.parentChain.length / 6),
        typeDefinition: c.chunkType === "definition" ? 1 : 0,
        typeRequirement: c.chunkType === "requirement" ? 1 : 0,
        typeHeader: c.chunkType === "header" ? 1 : 0,
        citedBy: Math.min(1, (citedCount.get(c.sectionId) ?? 0) / 3),
        cites: (c.citedSections ?? []).some((x) => x !== c.sectionId && sectionCount.has(x)) ? 1 : 0,
        sectionMates: ((sectionCount.get(c.sectionId) ?? 1) - 1) / others,
        queryTerms: Math.min(1, d / 20),
      } as FeatureRow;
      for (const k of SET_FEATURE_NAMES) row[k] = set[i][k];
      row.bm25 = bm25[i] / bm25Max;
      return row;
    });
  }

  /** 1 when a defined term the chunk uses (its stems, in order) occurs in the query's stems, else 0. */
  private definitionsUsed(a: ChunkAnalysis, queryLower: string): number {
    for (const t of a.termAnalyses) if (t.ids.length > 0 && this.slots[t.ids[0]] >= 0 && queryLower.includes(t.padded)) return 1;
    return 0;
  }
}

/** A section id named in the query is the chunk's section (1) or occurs in its text (0.5), else 0. */
function sectionIdFeature(c: RerankCandidate, a: ChunkAnalysis, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  const own = c.sectionId.toLowerCase();
  if (ids.some((id) => own === id || own.endsWith(` ${id}`) || own.startsWith(`${id} `))) return 1;
  const content = (a.lower ??= a.content.toLowerCase());
  return ids.some((id) => content.includes(id)) ? 0.5 : 0;
}

const SECTION_ID = /\b(?:section|article|rule|regulation|chapter|part|paragraph|§+)\s*((?:\d+[A-Za-z]?)(?:\.\d+[A-Za-z]?)*(?:\([A-Za-z0-9]+\))*)/gi;

/** Section ids a query names ("Rule 2.14", "Article 4(11)", "§ 478.11"), lower-cased. */
export function sectionIdsIn(query: string): string[] {
  return [...query.matchAll(SECTION_ID)].map((m) => m[1].toLowerCase());
}

/**
 * Ranks with exact ties collapsed: a candidate whose score equals another's takes the better (smaller) of
 * their ranks, so features never depend on the order in which tied chunks happened to be indexed (a
 * resumed ingest and a clean one must score alike).
 */
export function tiedRanks(scores: ReadonlyArray<number | null>, ranks: ReadonlyArray<number | null>): Array<number | null> {
  const best = new Map<number, number>();
  for (const [i, s] of scores.entries()) {
    const r = ranks[i];
    if (s === null || r === null) continue;
    best.set(s, Math.min(best.get(s) ?? Infinity, r));
  }
  return ranks.map((r, i) => {
    const s = scores[i];
    return r === null || s === null ? r : (best.get(s) ?? r);
  });
}
