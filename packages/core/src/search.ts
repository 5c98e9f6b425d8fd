import type { ChunkType } from "./document.js";

/** The retrieval legs hierdoc fuses. */
export type SearchLeg = "semantic" | "keyword" | "exact";

/** How a search is run: all legs fused, or one leg alone. */
export type SearchMode = "hybrid" | SearchLeg;

/** An id with a leg's raw score, in rank order inside a leg's result list. */
export interface ScoredId {
  id: string;
  score: number;
}

/** Per-leg values of one result; `null` when the leg did not return the chunk (or did not run). */
export interface LegValues {
  semantic: number | null;
  keyword: number | null;
  exact: number | null;
}

/** Filters a search may apply. All given filters must match. */
export interface SearchFilters {
  /** Glob(s) over `source_path`. */
  source?: string | string[];
  /** Section id prefix ("Article 1", "9.3"). */
  sectionPrefix?: string;
  /** Allowed chunk types. */
  chunkType?: ChunkType | ChunkType[];
}

/** A definition attached to a result. */
export interface ResultDefinition {
  term: string;
  definitionText: string;
  sourceSection: string;
}

/** A cross-reference attached to a result. */
export interface ResultCrossReference {
  text: string;
  targetSectionId: string | null;
  external: boolean;
  /** Source of the target when resolved (another title of a code, another RFC, …). */
  targetSourcePath?: string;
  /** The cited document when external ("title 5", "HTTP/1.1"). */
  citedDocument?: string;
}

/** One search result, with provenance and per-leg scores and ranks. */
export interface SearchResult {
  id: string;
  /** 1-based rank in the fused list. */
  rank: number;
  score: number;
  content: string;
  context: string;
  sourcePath: string;
  start: number;
  end: number;
  sectionId: string;
  sectionTitle: string;
  parentChain: string[];
  chunkType: ChunkType;
  scores: LegValues;
  ranks: LegValues;
  definitions: ResultDefinition[];
  crossReferences: ResultCrossReference[];
}

/** Which path the router took for a search, reported with the results. */
export type RouteKind = "native_hybrid" | "fallback" | "single_leg";

/** Results plus how they were obtained. */
export interface SearchResponse {
  results: SearchResult[];
  route: RouteKind;
  /** Legs that failed and were dropped (graceful degradation), with why. */
  warnings: string[];
  timingsMs: Record<string, number>;
}
