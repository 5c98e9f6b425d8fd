import { describe, expect, it } from "@jest/globals";
import type { RerankCandidate } from "@hierdoc/core";
import { seededRandom } from "@hierdoc/core/testing";
import { SET_FEATURE_NAMES, chunkPlace, setFeatures, type SetFeatureName } from "@hierdoc/rerank";

// The definition setFeatures is optimised against: the regex id reader and string-keyed maps it replaced.
const CHUNK_SUFFIX = /^(.*)_chunk_(\d+)$/;
function regexPlace(id: string): { doc: string; seq: number | null } {
  const m = CHUNK_SUFFIX.exec(id);
  return m ? { doc: m[1], seq: Number(m[2]) } : { doc: id, seq: null };
}

function referenceSetFeatures(candidates: readonly RerankCandidate[], fusedNorm: readonly number[], fusedRank: readonly number[]): Array<Record<SetFeatureName, number>> {
  const places = candidates.map((c) => regexPlace(c.id));
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
    sectionTop.set(key, [...(sectionTop.get(key) ?? []), fusedNorm[i]]);
  });
  const scores = [...docs.values()].map((d) => d.score);
  const others = Math.max(1, candidates.length - 1);
  return places.map((p, i) => {
    const d = docs.get(p.doc)!;
    let neighbours = 0;
    let neighbourFused = 0;
    for (const s of p.seq === null ? [] : [p.seq - 1, p.seq + 1]) {
      const v = bySeq.get(`${p.doc}\u0000${s}`);
      if (v === undefined) continue;
      neighbours++;
      neighbourFused = Math.max(neighbourFused, v);
    }
    let sectionBest = 0;
    let skipped = false;
    for (const v of sectionTop.get(`${p.doc}\u0000${candidates[i].sectionId}`)!) {
      if (!skipped && v === fusedNorm[i]) skipped = true;
      else sectionBest = Math.max(sectionBest, v);
    }
    return { docShare: (d.count - 1) / others, docBest: 1 / d.best, docScore: total > 0 ? d.score / total : 0, docRank: 1 / (1 + scores.filter((s) => s > d.score).length), neighbours: neighbours / 2, neighbourFused, sectionBest };
  });
}

const ODD_IDS = ["a_chunk_", "_chunk_1", "a_chunk_1x", "a_chunk_x1", "a_chunk_1_chunk_2", "a_chunk_x_chunk_3", "a\n_chunk_4", "a\u2028b_chunk_5", "a_chunk_\n6", "a_chunk_007", "a_chunk_٣", "a_chunk_99999999999999999999", "chunk_1", "", "a__chunk_2"];

describe("setFeatures against its string-keyed reference", () => {
  it("chunkPlace reads every id as the regex /^(.*)_chunk_(\\d+)$/ does", () => {
    for (const id of ODD_IDS) expect(chunkPlace(id)).toEqual(regexPlace(id));
  });

  it("gives bit-identical features on 500 random candidate sets (shared documents, neighbours, section mates, tied scores, odd ids)", () => {
    const rnd = seededRandom("set-features-identity");
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    let compared = 0;
    for (let set = 0; set < 500; set++) {
      const n = 1 + Math.floor(rnd() * 60);
      const candidates: RerankCandidate[] = [];
      const norm: number[] = [];
      const ranks: number[] = [];
      for (let i = 0; i < n; i++) {
        const id = rnd() < 0.05 ? pick(ODD_IDS) : `docs/${pick(["a", "b", "c", "d e"])}.txt_chunk_${Math.floor(rnd() * 12)}`;
        candidates.push({ id, content: "", context: "", sectionId: pick(["1", "2", "2.1", "Article 5"]), sectionTitle: "", parentChain: [], fusedScore: 0, fusedRank: i + 1 });
        norm.push(rnd() < 0.2 ? pick([0, 0.5, 1]) : rnd());
        ranks.push(1 + Math.floor(rnd() * n));
      }
      const got = setFeatures(candidates, norm, ranks);
      const want = referenceSetFeatures(candidates, norm, ranks);
      for (let i = 0; i < n; i++) for (const f of SET_FEATURE_NAMES) expect(Object.is(got[i][f], want[i][f]) ? null : { set, i, f, got: got[i][f], want: want[i][f] }).toBeNull();
      compared += n;
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
