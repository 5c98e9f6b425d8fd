// A frozen copy of the string-based FeatureExtractor of @hierdoc/rerank as it was before the stem-id rewrite
// (commit 8021e09, packages/rerank/src/features.ts): stems as strings, Maps and Sets per chunk. The identity
// test (feature-identity.test.ts) checks that the optimised extractor returns bit-identical feature values.
// Do not optimise or "fix" this file: it is the definition the fast code is held to. Feature groups that
// live in their own files (set-features.ts) are called, not copied, exactly as the old extractor called them.
import type { RerankCandidate } from "@hierdoc/core";
import { minimalWindow, ngrams, sectionIdsIn, setFeatures, stems, tiedRanks, type FeatureRow, type SetFeatureName } from "@hierdoc/rerank";

export class ReferenceFeatureExtractor {
  private readonly cache = new Map<string, Analysed>();

  /** Features of each candidate, in candidate order. Candidates without leg scores get 0 for those. */
  extract(query: string, candidates: readonly RerankCandidate[]): FeatureRow[] {
    const q = stems(query);
    const qSet = new Set(q);
    const ctx: QueryContext = {
      qSet,
      phrases: [...ngrams(q, 2), ...ngrams(q, 3)].map((text) => {
        const words = text.split(" ");
        return { text, weight: words.length - 1, head: `${words[0]} ${words[1]}` };
      }),
      queryLower: ` ${q.join(" ")} `,
      sectionIds: sectionIdsIn(query),
      idf: new Map(),
      idfTotal: 1,
      qBigrams: ngrams(q, 2),
      qLength: q.length,
      numbers: [...qSet].filter((t) => /\d/.test(t)),
      rarest: undefined,
      avgLength: 1,
    };
    const analysed = candidates.map((c) => this.analysedOf(c.content));
    const chunkStems = analysed.map((a) => a.seq);
    ctx.idf = candidateIdf(qSet, analysed);
    ctx.idfTotal = [...qSet].reduce((s, t) => s + (ctx.idf.get(t) ?? 0), 0) || 1;
    for (const t of qSet) if (ctx.rarest === undefined || (ctx.idf.get(t) ?? 0) > (ctx.idf.get(ctx.rarest) ?? 0)) ctx.rarest = t;
    ctx.avgLength = chunkStems.reduce((s, x) => s + x.length, 0) / Math.max(1, chunkStems.length) || 1;
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
    const others = Math.max(1, candidates.length - 1);
    const fusedRanks = tiedRanks(fused, candidates.map((c, i) => c.fusedRank ?? i + 1));
    const kRanks = tiedRanks(candidates.map((c) => c.scores?.keyword ?? null), candidates.map((c) => c.ranks?.keyword ?? null));
    const sRanks = tiedRanks(sem, candidates.map((c) => c.ranks?.semantic ?? null));
    const fusedNorm = fused.map((f) => (f - fMin) / fSpan);
    const set = setFeatures(candidates, fusedNorm, fusedRanks.map((r, i) => r ?? i + 1));
    const bm25 = analysed.map((a) => bm25Of(a, ctx));
    const bm25Max = Math.max(0, ...bm25) || 1;
    return candidates.map((c, i) => {
      const s = sem[i];
      const kRank = kRanks[i];
      const sRank = sRanks[i];
      return {
        fused: fusedNorm[i],
        rank: 1 / (fusedRanks[i] ?? i + 1),
        ...this.lexical(c, analysed[i], ctx),
        semantic: s ?? 0,
        semanticNorm: s === null ? 0 : (s - sMin) / sSpan,
        semanticRank: sRank ? 1 / sRank : 0,
        keywordNorm: (c.scores?.keyword ?? 0) / kwMax,
        keywordRank: kRank ? 1 / kRank : 0,
        exact: c.scores?.exact ? 1 : 0,
        length: Math.min(1, Math.log1p(chunkStems[i].length) / Math.log(1000)),
        depth: Math.min(1, c.parentChain.length / 6),
        typeDefinition: c.chunkType === "definition" ? 1 : 0,
        typeRequirement: c.chunkType === "requirement" ? 1 : 0,
        typeHeader: c.chunkType === "header" ? 1 : 0,
        citedBy: Math.min(1, (citedCount.get(c.sectionId) ?? 0) / 3),
        cites: (c.citedSections ?? []).some((x) => x !== c.sectionId && sectionCount.has(x)) ? 1 : 0,
        sectionMates: ((sectionCount.get(c.sectionId) ?? 1) - 1) / others,
        queryTerms: Math.min(1, qSet.size / 20),
        ...set[i],
        bm25: bm25[i] / bm25Max,
      };
    });
  }

  /** Stems of a text, its space-joined form (phrase lookups) and its stem set, cached by text. */
  private analysedOf(text: string): Analysed {
    let out = this.cache.get(text);
    if (!out) {
      if (this.cache.size >= 20_000) this.cache.clear();
      const seq = stems(text);
      const counts = new Map<string, number>();
      const bigrams = new Set<string>();
      for (let i = 0; i < seq.length; i++) {
        counts.set(seq[i], (counts.get(seq[i]) ?? 0) + 1);
        if (i > 0) bigrams.add(`${seq[i - 1]} ${seq[i]}`);
      }
      out = { seq, joined: undefined, counts, bigrams };
      this.cache.set(text, out);
    }
    return out;
  }

  private lexical(c: RerankCandidate, a: Analysed, x: QueryContext): Omit<FeatureRow, "fused" | "rank" | "bm25" | LegFeature | StructureFeature | SetFeatureName> {
    const { qSet } = x;
    const seq = a.seq;
    const present: string[] = [];
    let coverage = 0;
    for (const t of qSet) {
      if (!a.counts.has(t)) continue;
      present.push(t);
      coverage += x.idf.get(t) ?? 0;
    }
    coverage /= x.idfTotal;
    const win = minimalWindow(seq, qSet);
    const proximity = win.covered >= 2 ? (win.covered / win.width) * (win.covered / qSet.size) : 0;
    let phrase = 0;
    if (x.phrases.length > 0) {
      let hit = 0;
      let total = 0;
      for (const p of x.phrases) {
        total += p.weight;
        // A trigram can only occur where its first bigram does: the set lookup spares most string searches.
        if (a.bigrams.has(p.head) && (p.weight === 1 || (a.joined ??= ` ${seq.join(" ")} `).includes(` ${p.text} `))) hit += p.weight;
      }
      phrase = hit / total;
    }
    const shareOf = (s: ReadonlyMap<string, number>): number => {
      if (qSet.size === 0 || s.size === 0) return 0;
      let n = 0;
      for (const t of qSet) if (s.has(t)) n++;
      return n / qSet.size;
    };
    const share = (text: string): number => (text ? shareOf(this.analysedOf(text).counts) : 0);
    const defs = (c.definitions ?? []).map((d) => this.analysedOf(d.term).seq.join(" ")).filter((t) => t.length > 0);
    const heading = [this.analysedOf(c.sectionTitle).counts, this.analysedOf(c.parentChain.join(" ")).counts];
    let headingIdf = 0;
    for (const t of qSet) if (heading[0].has(t) || heading[1].has(t)) headingIdf += x.idf.get(t) ?? 0;
    let numbers = 0;
    for (const t of x.numbers) if (a.counts.has(t)) numbers++;
    let run = 0;
    let best = 0;
    for (const b of x.qBigrams) {
      run = a.bigrams.has(b) ? run + 1 : 0;
      best = Math.max(best, run);
    }
    const definitions = defs.length > 0 && defs.some((t) => x.queryLower.includes(` ${t} `)) ? 1 : 0;
    let sectionId = 0;
    if (x.sectionIds.length > 0) {
      const own = c.sectionId.toLowerCase();
      const content = c.content.toLowerCase();
      if (x.sectionIds.some((id) => own === id || own.endsWith(` ${id}`) || own.startsWith(`${id} `))) sectionId = 1;
      else if (x.sectionIds.some((id) => content.includes(id))) sectionId = 0.5;
    }
    return {
      coverage,
      proximity,
      phrase,
      title: share(c.sectionTitle),
      chain: share(c.parentChain.join(" ")),
      definitions,
      sectionId,
      termShare: qSet.size === 0 ? 0 : present.length / qSet.size,
      contextShare: c.context ? shareOf(this.analysedOf(c.context).counts) : 0,
      rarest: x.rarest !== undefined && a.counts.has(x.rarest) ? 1 : 0,
      numbers: x.numbers.length > 0 ? numbers / x.numbers.length : 0,
      headingIdf: headingIdf / x.idfTotal,
      run: best > 0 && x.qLength > 0 ? (best + 1) / x.qLength : 0,
    };
  }
}

type LegFeature = "semantic" | "semanticNorm" | "semanticRank" | "keywordNorm" | "keywordRank" | "exact";
type StructureFeature = "length" | "depth" | "typeDefinition" | "typeRequirement" | "typeHeader" | "citedBy" | "cites" | "sectionMates" | "queryTerms";

interface Analysed {
  seq: string[];
  /** The stems space-joined and space-padded (trigram lookups), built on first use. */
  joined: string | undefined;
  /** Occurrences of each stem (its keys are the distinct stems). */
  counts: Map<string, number>;
  /** Consecutive stem pairs, space-joined. */
  bigrams: Set<string>;
}

interface QueryContext {
  qSet: ReadonlySet<string>;
  /** Query bigrams (weight 1) and trigrams (weight 2); `head` is the first bigram. */
  phrases: Array<{ text: string; weight: number; head: string }>;
  queryLower: string;
  sectionIds: string[];
  idf: Map<string, number>;
  idfTotal: number;
  qBigrams: string[];
  qLength: number;
  /** Query stems holding a digit (rule numbers, amounts, years). */
  numbers: string[];
  /** The query stem with the highest candidate-set IDF. */
  rarest: string | undefined;
  /** Mean candidate length in stems (BM25 length normalisation). */
  avgLength: number;
}

/** BM25 (k1 1.2, b 0.75) of a candidate for the query stems, with candidate-set IDF and mean length. */
function bm25Of(a: Analysed, x: QueryContext): number {
  let score = 0;
  const norm = 1.2 * (0.25 + (0.75 * a.seq.length) / x.avgLength);
  for (const t of x.qSet) {
    const tf = a.counts.get(t);
    if (tf) score += ((x.idf.get(t) ?? 0) * tf * 2.2) / (tf + norm);
  }
  return score;
}

/** BM25-style IDF of each query stem over the candidate set (a stem in every candidate weighs little). */
function candidateIdf(qSet: ReadonlySet<string>, docs: readonly Analysed[]): Map<string, number> {
  const n = docs.length;
  const out = new Map<string, number>();
  for (const t of qSet) {
    let df = 0;
    for (const d of docs) if (d.counts.has(t)) df++;
    out.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return out;
}

