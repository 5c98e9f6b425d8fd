// ANN recall of the scale benchmark: the store's top-k against an exact scan of the same snapshot's vectors.
import type { Embedder } from "@hierdoc/core";
import { MemoryStore, snapshotRowVectors, type MemoryAnnConfig } from "@hierdoc/store-adapters-memory";
import { summarize } from "./stats.js";
import { timeQueries } from "./time-queries.js";

/** The packed vectors and row count of a memory-store snapshot folder (rows are the graph's keys). */
export function snapshotVectors(storeDir: string): { count: number; vectors: Float32Array; ann?: { quantization: string } } {
  const { count, vectors, manifest } = snapshotRowVectors(storeDir);
  return { count, vectors, ann: manifest.ann };
}

/** Rows of the `k` vectors most cosine-similar to `query` among `count` packed unit rows, best first (exact scan). */
export function exactTop(vectors: Float32Array, count: number, query: Float32Array, k = 10): number[] {
  const dims = query.length;
  const top: Array<[number, number]> = [];
  for (let r = 0, off = 0; r < count; r++, off += dims) {
    let s = 0;
    for (let j = 0; j < dims; j++) s += vectors[off + j] * query[j];
    if (top.length < k || s > top[top.length - 1][1]) {
      top.push([r, s]);
      top.sort((a, b) => b[1] - a[1]);
      if (top.length > k) top.pop();
    }
  }
  return top.map(([r]) => r);
}

/** Fraction of the exact top-k ids (`exact`, row numbers mapped through `ids`) found in each answer. */
export function recallAt(exact: readonly number[][], answers: readonly string[][], ids: readonly string[]): number {
  let hit = 0;
  let total = 0;
  exact.forEach((rows, i) => {
    const got = new Set(answers[i]);
    for (const r of rows) if (got.has(ids[r])) hit++;
    total += rows.length;
  });
  return total ? hit / total : 0;
}

/** One setting of {@link annSweep}: recall@10 and the store's dense search cost per query. */
export interface SweepRow {
  candidates: number;
  efSearch: number;
  recallAt10: number;
  wallMs: ReturnType<typeof summarize>;
  cpuMs: ReturnType<typeof summarize>;
  openMs: number;
}

/**
 * Opens the store once per `(candidates, efSearch)` setting and measures its top-10 against an exact scan
 * (computed once). Queries with a zero vector are skipped.
 */
export async function annSweep(storeDir: string, embedder: Embedder, texts: readonly string[], settings: ReadonlyArray<{ candidates: number; efSearch: number }>, quantization: MemoryAnnConfig["quantization"]): Promise<SweepRow[]> {
  const queries = (await Promise.all(texts.map((t) => embedder.embedQuery(t)))).filter((v) => v.some((x) => x !== 0)).map(unitCopy);
  const { count, vectors, ann } = snapshotVectors(storeDir);
  // A graph saved with other settings is not loaded: the store would answer exactly and report recall 1.
  if (ann?.quantization !== quantization) throw new Error(`ann-sweep: ${storeDir} holds no ${quantization} graph`);
  const exact = queries.map((q) => exactTop(vectors, count, q));
  const rows: SweepRow[] = [];
  let ids: string[] | undefined;
  for (const s of settings) {
    const t0 = performance.now();
    const store = new MemoryStore({ dir: storeDir, ann: { candidates: s.candidates, ef_search: s.efSearch, quantization } });
    await store.open({ embedderId: embedder.id, dimensions: embedder.dimensions });
    const openMs = performance.now() - t0;
    if (ids === undefined) {
      ids = [];
      for await (const r of store.scan()) ids.push(r.id);
    }
    const { wall, cpu, results: answers } = await timeQueries(queries, async (q) => (await store.vectorSearch({ vector: q, topK: 10 })).map((h) => h.id), 10);
    await store.close();
    rows.push({ ...s, recallAt10: recallAt(exact, answers, ids), wallMs: summarize(wall), cpuMs: summarize(cpu), openMs });
  }
  return rows;
}

function unitCopy(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const inv = 1 / Math.sqrt(n);
  return Float32Array.from(v, (x) => x * inv);
}
