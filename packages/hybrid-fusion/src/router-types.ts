import type { Embedder, KeywordIndex, LegValues, RouteKind, ScoredId, SearchLeg, SearchMode, StoreFilter, VectorStoreAdapter } from "@hierdoc/core";

/**
 * What the router needs from an exact-id index (keyword-search's `ExactIndex` fits structurally):
 * chunks whose section ids (or quoted phrases) the query names, best first.
 */
export interface ExactLookup {
  lookup(query: string, options?: { allowIds?: ReadonlySet<string> }): ScoredId[] | Promise<ScoredId[]>;
}

/** Fusion method for app-level hybrid search. */
export type FusionMethod = "rrf" | "convex";

/** Settings of a {@link SearchRouter}. */
export interface SearchRouterOptions {
  store: VectorStoreAdapter;
  embedder: Embedder;
  /** Keyword provider (in-memory BM25, OpenSearch…). Without it, the store's own full text when it has one. */
  keyword?: KeywordIndex;
  exact?: ExactLookup;
  /** Leg weights; default 1 each. A 0 weight turns a leg off in hybrid mode. */
  weights?: Partial<Record<SearchLeg, number>>;
  /** RRF k; default 60. */
  rrfK?: number;
  /** Default `rrf`. */
  fusion?: FusionMethod;
  /**
   * At most this many exact-id hits are lifted above fused results (best exact score, then best fused
   * score first); default 3. The rest keep their fused position, which already counts the exact leg.
   */
  exactBoostLimit?: number;
  /** Candidates fetched per leg for a final top-k; default max(topK × 3, 50). */
  candidateDepth?: (topK: number) => number;
  /** A leg slower than this fails with E_TIMEOUT and is dropped with a warning; default 10 000 ms. */
  legTimeoutMs?: number;
  /** Called for each degradation (besides the warning and the OpenTelemetry span event). */
  onWarning?: (warning: RouterWarning) => void;
}

/** A dropped leg: which, and why. */
export interface RouterWarning {
  leg: SearchLeg | "native_hybrid";
  message: string;
  error: unknown;
}

/** Options of one search. */
export interface RouterSearchOptions {
  topK: number;
  /** Default `hybrid`. */
  mode?: SearchMode;
  /** Restrict results to these chunk ids (store legs are post-filtered after over-fetching). */
  allowIds?: ReadonlySet<string>;
  /** Store-side filter for the dense / full-text / native legs. */
  filter?: StoreFilter;
  /**
   * Lift exact-id hits above the fused list (default true). Callers turn it off for queries that merely
   * mention an id among many other words, where the exact leg then only takes part in fusion.
   */
  liftExact?: boolean;
  /**
   * Called with each leg's results as soon as that leg answers, before the other legs finish and before
   * fusion (e.g. to start reading the first leg's records while a slower leg runs). It must not throw and
   * should return quickly: it runs on the search's path.
   */
  onLegResults?: (leg: SearchLeg, results: readonly ScoredId[]) => void;
}

/** One routed result: id, final score, each leg's raw score and 1-based rank. */
export interface RoutedHit {
  id: string;
  score: number;
  scores: LegValues;
  ranks: LegValues;
}

/** What {@link SearchRouter.search} returns. */
export interface RouterResponse {
  hits: RoutedHit[];
  route: RouteKind;
  /** One line per leg dropped by graceful degradation. */
  warnings: string[];
  /** Milliseconds per step: embed, semantic, keyword, exact, native_hybrid, fusion, total. */
  timingsMs: Record<string, number>;
}
