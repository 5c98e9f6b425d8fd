import type { Embedder, LegValues, ScoredId } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { applyExactBoost, type RankedList, weightedRrf } from "@hierdoc/hybrid-fusion";
import { Bm25Index } from "@hierdoc/keyword-search";

/** An agent tool as the filter sees it. */
export interface ToolDescription {
  /** Unique tool name ("search_legal_docs"). */
  name: string;
  description: string;
  /** Extra words that describe the tool (parameter names, categories). */
  keywords?: string[];
}

/** Options of a {@link ToolIndex}. */
export interface ToolIndexOptions {
  /** Adds a semantic leg over the descriptions. */
  embedder?: Embedder;
  /** Leg weights; default 1 each. */
  weights?: { keyword?: number; semantic?: number; exact?: number };
  /** RRF k; default 60. */
  rrfK?: number;
}

/** A selected tool with its fused score and per-leg values. */
export interface ToolMatch {
  name: string;
  score: number;
  scores: LegValues;
  ranks: LegValues;
}

/**
 * Picks the tools relevant to an agent's query from their names and descriptions: BM25 over name (split
 * into words) + description + keywords, an optional embedding leg, weighted RRF, and a tool named in the
 * query ("use search_docs") lifted to the top.
 */
export class ToolIndex {
  private readonly tools = new Map<string, ToolDescription>();
  private readonly vectors = new Map<string, Float32Array>();
  private readonly bm25 = new Bm25Index();
  private readonly weights: { keyword: number; semantic: number; exact: number };

  constructor(private readonly options: ToolIndexOptions = {}) {
    this.weights = { keyword: 1, semantic: 1, exact: 1, ...options.weights };
  }

  /** Number of tools indexed. */
  get size(): number {
    return this.tools.size;
  }

  /**
   * Adds or replaces tools by name.
   * @throws HierdocError E_INVALID_ARGUMENT for a tool without a name; E_EMBEDDING when the embedder fails.
   */
  async add(tools: ToolDescription[]): Promise<void> {
    for (const t of tools) {
      if (!t.name?.trim()) throw new HierdocError("E_INVALID_ARGUMENT", "a tool needs a non-empty name");
    }
    const docs = tools.map((t) => ({ id: t.name, text: toolText(t), sourcePath: "tools" }));
    if (this.options.embedder && tools.length > 0) {
      let vectors: Float32Array[];
      try {
        vectors = await this.options.embedder.embedDocuments(tools.map((t) => `${humanize(t.name)}: ${t.description}`));
      } catch (err) {
        throw new HierdocError("E_EMBEDDING", `embedding tool descriptions failed: ${(err as Error).message}`, { cause: err, retryable: true });
      }
      tools.forEach((t, i) => this.vectors.set(t.name, vectors[i]));
    }
    await this.bm25.upsert(docs);
    for (const t of tools) this.tools.set(t.name, t);
  }

  /** Removes tools by name. */
  async remove(names: string[]): Promise<void> {
    await this.bm25.remove(names);
    for (const n of names) {
      this.tools.delete(n);
      this.vectors.delete(n);
    }
  }

  /** The tool with this name, if indexed. */
  get(name: string): ToolDescription | undefined {
    return this.tools.get(name);
  }

  /**
   * The `topK` (default 5) tools most relevant to the query, best first. Tools no leg found are not
   * returned. @throws HierdocError E_EMBEDDING when the embedder fails on the query.
   */
  async select(query: string, options: { topK?: number } = {}): Promise<ToolMatch[]> {
    const topK = options.topK ?? 5;
    const depth = Math.max(topK * 3, 20);
    const lists: RankedList[] = [
      { leg: "keyword", weight: this.weights.keyword, results: this.bm25.searchSync(query, { topK: depth }) },
    ];
    if (this.options.embedder && this.weights.semantic > 0 && this.vectors.size > 0) {
      let q: Float32Array;
      try {
        q = await this.options.embedder.embedQuery(query);
      } catch (err) {
        throw new HierdocError("E_EMBEDDING", `embedding the tool query failed: ${(err as Error).message}`, { cause: err, retryable: true });
      }
      lists.push({ leg: "semantic", weight: this.weights.semantic, results: this.semantic(q, depth) });
    }
    lists.push({ leg: "exact", weight: this.weights.exact, results: this.named(query) });
    const fused = applyExactBoost(weightedRrf(lists, { k: this.options.rrfK ?? 60 }));
    return fused.slice(0, topK).map((h) => ({ name: h.id, score: h.score, scores: h.scores, ranks: h.ranks }));
  }

  private semantic(q: Float32Array, depth: number): ScoredId[] {
    const out: ScoredId[] = [];
    for (const [name, v] of this.vectors) out.push({ id: name, score: cosine(q, v) });
    return out.sort((a, b) => b.score - a.score).slice(0, depth);
  }

  /** Tools whose exact name appears in the query as a whole word. */
  private named(query: string): ScoredId[] {
    const words = new Set(query.toLowerCase().match(/[\p{L}\p{N}_.\-]+/gu) ?? []);
    const out: ScoredId[] = [];
    for (const name of this.tools.keys()) if (words.has(name.toLowerCase())) out.push({ id: name, score: 1 });
    return out;
  }
}

function humanize(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-.]+/g, " ");
}

function toolText(t: ToolDescription): string {
  return [t.name, humanize(t.name), t.description, ...(t.keywords ?? [])].join("\n");
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
