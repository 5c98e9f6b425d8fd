import type { ScoredId, SearchLeg } from "@hierdoc/core";
import { HierdocError, isHierdocError } from "@hierdoc/core";
import { trace } from "@opentelemetry/api";
import { convexFusion } from "./convex-fusion.js";
import { applyExactBoost } from "./exact-boost.js";
import { emptyLegValues, type FusedHit, type RankedList } from "./fused-hit.js";
import type { RouterResponse, RouterSearchOptions, RouterWarning, SearchRouterOptions } from "./router-types.js";
import { weightedRrf } from "./weighted-rrf.js";

type LegName = SearchLeg | "native_hybrid";

/**
 * Runs a query over the configured legs and fuses them. Hybrid mode uses the store's native hybrid
 * search when its capabilities say `nativeHybrid`; otherwise dense (store) + keyword (keyword index, or
 * the store's full text when `fullText`) fused with weighted RRF. The exact leg always comes from the
 * exact index and its hits are lifted to the top. A failing leg is dropped with a warning (and a span
 * event); the router never looks at a store's name.
 */
export class SearchRouter {
  private readonly weights: Record<SearchLeg, number>;

  constructor(private readonly options: SearchRouterOptions) {
    this.weights = { semantic: 1, keyword: 1, exact: 1, ...options.weights };
    for (const [leg, w] of Object.entries(this.weights)) {
      if (!Number.isFinite(w) || w < 0) throw new HierdocError("E_CONFIG", `search weight ${leg} must be >= 0 (got ${w})`, { details: { path: `search.weights.${leg}` } });
    }
  }

  /** True when hybrid searches go to the store's native hybrid query. */
  get usesNativeHybrid(): boolean {
    const { store } = this.options;
    return store.capabilities.nativeHybrid && typeof store.hybridSearch === "function";
  }

  /**
   * Searches in the given mode.
   * @throws HierdocError E_INVALID_ARGUMENT for a bad topK or a mode whose leg is not configured;
   * the leg's error in single-leg modes; E_STORE_UNAVAILABLE (cause: the dense error) when every
   * hybrid leg failed.
   */
  async search(query: string, opts: RouterSearchOptions): Promise<RouterResponse> {
    const started = performance.now();
    const topK = opts.topK;
    if (!Number.isInteger(topK) || topK < 1) throw new HierdocError("E_INVALID_ARGUMENT", `topK must be a positive integer (got ${topK})`);
    const mode = opts.mode ?? "hybrid";
    const depth = Math.max(topK, Math.floor(this.options.candidateDepth?.(topK) ?? Math.max(topK * 3, 50)));
    const ctx: Ctx = { query, opts, depth, timings: {}, warnings: [] };
    let response: Omit<RouterResponse, "timingsMs" | "warnings">;
    switch (mode) {
      case "semantic":
      case "keyword":
      case "exact": {
        if (mode === "exact" && !this.options.exact) throw new HierdocError("E_INVALID_ARGUMENT", "exact mode needs an exact index");
        if (mode === "keyword" && !this.hasKeyword()) {
          throw new HierdocError("E_KEYWORD_UNAVAILABLE", "keyword mode needs a keyword index or a store with full-text search");
        }
        const results = await this.leg(mode, ctx);
        response = { hits: singleLeg(mode, results).slice(0, topK), route: "single_leg" };
        break;
      }
      case "hybrid":
        response = await this.hybrid(ctx);
        response.hits = response.hits.slice(0, topK);
        break;
      default:
        throw new HierdocError("E_INVALID_ARGUMENT", `unknown search mode ${JSON.stringify(mode)}`);
    }
    ctx.timings.total = performance.now() - started;
    return { ...response, warnings: ctx.warnings, timingsMs: ctx.timings };
  }

  private async hybrid(ctx: Ctx): Promise<Omit<RouterResponse, "timingsMs" | "warnings">> {
    ctx.hybrid = true;
    const exactP = this.options.exact && this.weights.exact > 0 ? this.settle("exact", ctx) : Promise.resolve(null);
    if (this.usesNativeHybrid) {
      const native = await this.settle("native_hybrid", ctx);
      if (native) {
        const exact = await exactP;
        const t = performance.now();
        const hits = native.map((r): FusedHit => ({ id: r.id, score: r.score, scores: emptyLegValues(), ranks: emptyLegValues() }));
        const merged = mergeExact(dedupeHits(hits), exact ?? []);
        const out = ctx.opts.liftExact === false ? merged : applyExactBoost(merged, { limit: this.options.exactBoostLimit ?? 3 });
        ctx.timings.fusion = performance.now() - t;
        return { hits: out, route: "native_hybrid" };
      }
    }
    const semanticP = this.weights.semantic > 0 ? this.settle("semantic", ctx) : Promise.resolve(null);
    let keywordP: Promise<ScoredId[] | null> = Promise.resolve(null);
    if (this.weights.keyword > 0) {
      if (this.hasKeyword()) keywordP = this.settle("keyword", ctx);
      else ctx.warnings.push("keyword leg skipped: no keyword index and the store has no full-text search");
    }
    const [semantic, keyword, exact] = await Promise.all([semanticP, keywordP, exactP]);
    const failed = Object.keys(ctx.errors ?? {}).filter((leg) => leg !== "exact").length;
    if (failed > 0 && semantic === null && keyword === null && (exact === null || exact.length === 0)) {
      const cause = ctx.errors?.semantic ?? ctx.errors?.keyword ?? ctx.errors?.exact;
      throw new HierdocError(isHierdocError(cause) ? cause.code : "E_STORE_UNAVAILABLE", `every search leg failed: ${ctx.warnings.join("; ")}`, {
        cause,
        retryable: isHierdocError(cause) ? cause.retryable : true,
        details: { operation: "search" },
      });
    }
    const t = performance.now();
    const lists: RankedList[] = [];
    if (semantic) lists.push({ leg: "semantic", weight: this.weights.semantic, results: semantic });
    if (keyword) lists.push({ leg: "keyword", weight: this.weights.keyword, results: keyword });
    if (exact) {
      // Not lifted: an id mentioned in a longer question counts only for chunks another leg also found
      // (the same "Rule 3.2" exists in many rulebooks; the other legs say which one the question is about).
      const found = new Set([...(semantic ?? []), ...(keyword ?? [])].map((r) => r.id));
      const results = ctx.opts.liftExact === false ? exact.filter((r) => found.has(r.id)) : exact;
      lists.push({ leg: "exact", weight: this.weights.exact, results });
    }
    const fused = this.options.fusion === "convex" ? convexFusion(lists) : weightedRrf(lists, { k: this.options.rrfK ?? 60 });
    const out = ctx.opts.liftExact === false ? fused : applyExactBoost(fused, { limit: this.options.exactBoostLimit ?? 3 });
    ctx.timings.fusion = performance.now() - t;
    return { hits: out, route: "fallback" };
  }

  private hasKeyword(): boolean {
    const { keyword, store } = this.options;
    return Boolean(keyword) || (store.capabilities.fullText && typeof store.fullTextSearch === "function");
  }

  /** Runs a leg; on failure records a warning and returns null. */
  private async settle(leg: LegName, ctx: Ctx): Promise<ScoredId[] | null> {
    try {
      return await this.leg(leg, ctx);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const fallback = leg === "keyword" ? "semantic only" : leg === "semantic" ? "keyword only" : leg === "native_hybrid" ? "app-level fusion" : "no exact boost";
      const message = `${leg} leg failed (${reason}); continuing with ${fallback}`;
      ctx.warnings.push(message);
      (ctx.errors ??= {})[leg] = error;
      trace.getActiveSpan()?.addEvent("hierdoc.search.leg_failed", { leg, reason, code: isHierdocError(error) ? error.code : "unknown" });
      const warning: RouterWarning = { leg, message, error };
      this.options.onWarning?.(warning);
      return null;
    }
  }

  /**
   * Runs one leg with its timeout and timing. In a hybrid search the keyword and exact legs first yield one
   * macrotask turn: their in-process work is synchronous, and the dense leg (embedding, then the store's
   * search, which may run on another thread or server) is dispatched first, so it overlaps them instead of
   * waiting behind them. Their timers start after the yield (each measures its own work).
   */
  private async leg(leg: LegName, ctx: Ctx): Promise<ScoredId[]> {
    if (ctx.hybrid && (leg === "keyword" || leg === "exact")) await new Promise<void>((resolve) => setImmediate(resolve));
    const t = performance.now();
    let results: ScoredId[];
    try {
      results = await withTimeout(this.runLeg(leg, ctx), leg === "exact" ? undefined : this.options.legTimeoutMs ?? 10_000, leg);
    } finally {
      ctx.timings[leg] = performance.now() - t;
    }
    if (leg !== "native_hybrid") ctx.opts.onLegResults?.(leg, results);
    return results;
  }

  private async runLeg(leg: LegName, ctx: Ctx): Promise<ScoredId[]> {
    const { store, keyword, exact } = this.options;
    const { query, opts, depth } = ctx;
    const allow = opts.allowIds;
    const fetch = allow ? Math.min(depth * 4, Math.max(depth, 1000)) : depth;
    switch (leg) {
      case "exact":
        return (await exact!.lookup(query, allow ? { allowIds: allow } : undefined)).slice(0, depth);
      case "keyword":
        if (keyword) return keyword.search(query, { topK: depth, allowIds: allow });
        return filterIds(await store.fullTextSearch!({ text: query, topK: fetch, filter: opts.filter }), allow, depth);
      case "semantic": {
        const vector = await this.embed(ctx);
        return filterIds(await store.vectorSearch({ vector, topK: fetch, filter: opts.filter }), allow, depth);
      }
      case "native_hybrid": {
        const vector = await this.embed(ctx);
        return filterIds(await store.hybridSearch!({ text: query, vector, topK: fetch, filter: opts.filter }), allow, depth);
      }
    }
  }

  private embed(ctx: Ctx): Promise<Float32Array> {
    ctx.vector ??= (async () => {
      const t = performance.now();
      try {
        return await this.options.embedder.embedQuery(ctx.query);
      } finally {
        ctx.timings.embed = performance.now() - t;
      }
    })();
    return ctx.vector;
  }
}

interface Ctx {
  query: string;
  opts: RouterSearchOptions;
  depth: number;
  timings: Record<string, number>;
  warnings: string[];
  errors?: Partial<Record<LegName, unknown>>;
  vector?: Promise<Float32Array>;
  /** A hybrid search: see {@link SearchRouter.leg}. */
  hybrid?: boolean;
}

function filterIds(results: ScoredId[], allow: ReadonlySet<string> | undefined, depth: number): ScoredId[] {
  return (allow ? results.filter((r) => allow.has(r.id)) : results).slice(0, depth);
}

function singleLeg(leg: SearchLeg, results: ScoredId[]): FusedHit[] {
  const seen = new Set<string>();
  const out: FusedHit[] = [];
  for (const r of results) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    const hit: FusedHit = { id: r.id, score: r.score, scores: emptyLegValues(), ranks: emptyLegValues() };
    hit.scores[leg] = r.score;
    hit.ranks[leg] = out.length + 1;
    out.push(hit);
  }
  return out;
}

function dedupeHits(hits: FusedHit[]): FusedHit[] {
  const seen = new Set<string>();
  return hits.filter((h) => (seen.has(h.id) ? false : (seen.add(h.id), true)));
}

/** Adds the exact leg's values to native-hybrid hits (and appends exact-only hits). */
function mergeExact(hits: FusedHit[], exact: ScoredId[]): FusedHit[] {
  const byId = new Map(hits.map((h) => [h.id, h]));
  const out = hits.slice();
  const seen = new Set<string>();
  for (const r of exact) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    let hit = byId.get(r.id);
    if (!hit) {
      hit = { id: r.id, score: 0, scores: emptyLegValues(), ranks: emptyLegValues() };
      out.push(hit);
    }
    hit.scores.exact = r.score;
    hit.ranks.exact = seen.size;
  }
  return out;
}

async function withTimeout<T>(p: Promise<T>, ms: number | undefined, leg: string): Promise<T> {
  if (!ms || !Number.isFinite(ms)) return p;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HierdocError("E_TIMEOUT", `${leg} leg timed out after ${ms} ms`, { retryable: true, details: { operation: leg } })), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
