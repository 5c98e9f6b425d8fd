import type { Chunk, ChunkRecord, ConvertedDocument } from "./document.js";
import type { LegValues, ScoredId } from "./search.js";

/** Input handed to a {@link Converter}. */
export interface ConvertInput {
  /** Path as given by the user. */
  path: string;
  bytes: Uint8Array;
}

/** Turns one file type into markdown or text. Chosen by content and extension. */
export interface Converter {
  readonly id: string;
  /** True when this converter handles the file (by extension and/or leading bytes). */
  canConvert(input: ConvertInput): boolean;
  /** @throws HierdocError with a code such as E_PARSE or E_INPUT_ENCODING, naming the file. */
  convert(input: ConvertInput): Promise<ConvertedDocument>;
}

/**
 * How to build an equal copy of a component in another thread from plain data: the named export `factory` of
 * `module` (a package specifier) called with `options` (structured-cloneable) returns it. A component declares one
 * when a copy gives bit-identical output and needs no shared state (offline embedders, structural contexts); the
 * ingest then runs it in its worker threads. API clients and LLM writers declare none (batching, rate limits).
 */
export interface WorkerRecipe {
  module: string;
  factory: string;
  options: unknown;
}

/** Dense text embedder. Vectors are L2-normalised unless the embedder says otherwise. */
export interface Embedder {
  /** Identity recorded in the index: provider, model and any setting that changes vectors. */
  readonly id: string;
  readonly dimensions: number;
  /** Set when a copy of this embedder can run in an ingest worker (see {@link WorkerRecipe}). */
  readonly workerRecipe?: WorkerRecipe;
  embedDocuments(texts: string[]): Promise<Float32Array[]>;
  embedQuery(text: string): Promise<Float32Array>;
}

/** One chunk to situate in its document. */
export interface ContextRequest {
  document: ConvertedDocument;
  chunk: Chunk;
}

/** The context written for one chunk, or why it could not be. */
export interface ContextResult {
  chunkId: string;
  context: string;
  error?: Error;
}

/** Options of {@link ContextGenerator.generate}. */
export interface ContextGenerateOptions {
  signal?: AbortSignal;
  /**
   * Called as contexts complete (cache hits count at once): requests done so far, and how many there are.
   * Generators that answer per chunk report it; batch and structural generators may not.
   */
  onProgress?: (done: number, total: number) => void;
}

/** Writes a short context for each chunk (LLM or structural). */
export interface ContextGenerator {
  readonly id: string;
  /** Set when a copy of this writer can run in an ingest worker (see {@link WorkerRecipe}). */
  readonly workerRecipe?: WorkerRecipe;
  generate(requests: ContextRequest[], options?: ContextGenerateOptions): Promise<ContextResult[]>;
}

/** A document for a keyword index: id, the text to index, and the source for filtering and removal. */
export interface KeywordDocument {
  id: string;
  text: string;
  sourcePath: string;
}

/** Options of a keyword search. */
export interface KeywordSearchOptions {
  topK: number;
  /** Restrict to these chunk ids (used by filtered searches). */
  allowIds?: ReadonlySet<string>;
}

/** A sparse keyword index (in-memory BM25, OpenSearch, …). */
export interface KeywordIndex {
  readonly id: string;
  /** Adds or replaces documents by id. */
  upsert(docs: KeywordDocument[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  search(query: string, options: KeywordSearchOptions): Promise<ScoredId[]>;
  size(): Promise<number>;
}

/** What a store can do; the router reads this, never the store's name. */
export interface StoreCapabilities {
  readonly vectorSearch: boolean;
  /** Store fuses dense and full text itself in one query. */
  readonly nativeHybrid: boolean;
  /** Store has its own full-text (keyword) search. */
  readonly fullText: boolean;
  readonly metadataFilter: boolean;
  readonly deleteByFilter: boolean;
  /** Data survives close and reopen. */
  readonly persistent: boolean;
  /** Largest upsert batch the store accepts in one call. */
  readonly maxBatchSize: number;
}

/** A record as the store keeps it: the chunk record and its vector. */
export interface StoreRecord {
  record: ChunkRecord;
  vector: Float32Array;
}

/** Filter a store applies to searches. */
export interface StoreFilter {
  sourcePaths?: string[];
}

/** A top-k query against a store. */
export interface StoreQuery {
  topK: number;
  vector?: Float32Array;
  text?: string;
  filter?: StoreFilter;
}

/** How a store was opened: the embedder it is for and its vector size. */
export interface StoreOpenOptions {
  embedderId: string;
  dimensions: number;
}

/**
 * A vector store. Adapters map driver errors to HierdocError with code, adapter and operation.
 * Methods the capabilities do not declare may be absent.
 */
export interface VectorStoreAdapter {
  readonly id: string;
  readonly capabilities: StoreCapabilities;
  /** Opens or creates the collection. @throws HierdocError E_EMBEDDER_MISMATCH / E_DIMENSION_MISMATCH / E_STORE_UNAVAILABLE */
  open(options: StoreOpenOptions): Promise<void>;
  /** Idempotent upsert by record id. */
  upsert(records: StoreRecord[]): Promise<void>;
  /** Records (without vectors) by id; missing ids are skipped. */
  get(ids: string[]): Promise<ChunkRecord[]>;
  deleteByIds(ids: string[]): Promise<void>;
  deleteBySource(sourcePath: string): Promise<void>;
  /** Every record without its vector, for rebuilding derived indexes. */
  scan(): AsyncIterable<ChunkRecord>;
  count(): Promise<number>;
  /**
   * A token that changes whenever the stored data changes (e.g. a snapshot generation), so a caller can tell
   * whether state it derived from the records is still current; null or absent when the store cannot tell.
   */
  stamp?(): Promise<string | null>;
  vectorSearch(query: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]>;
  fullTextSearch?(query: StoreQuery & { text: string }): Promise<ScoredId[]>;
  hybridSearch?(query: StoreQuery & { text: string; vector: Float32Array }): Promise<ScoredId[]>;
  /** Makes every write so far durable (atomically for file-backed stores). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** One fused hit handed to a {@link Reranker}: the chunk text, its context and where it sits. */
export interface RerankCandidate {
  id: string;
  content: string;
  context: string;
  sectionId: string;
  sectionTitle: string;
  parentChain: string[];
  /** Defined terms the chunk uses, when known. */
  definitions?: Array<{ term: string; definitionText?: string }>;
  /** The fused score and 1-based fused rank, when known (rerankers may blend them in). */
  fusedScore?: number;
  fusedRank?: number;
  /** Per-leg scores and 1-based ranks of the fused hit (null: the leg did not return it), when known. */
  scores?: LegValues;
  ranks?: LegValues;
  /** The chunk's type ("definition", "requirement", "content", "header"), when known. */
  chunkType?: string;
  /** Section ids the chunk cites (resolved cross-references), when known. */
  citedSections?: string[];
}

/** A reranker's score for one candidate; higher is better. `reasons` explains it (debugging only). */
export interface RerankScore {
  id: string;
  score: number;
  reasons?: Record<string, number | string>;
}

/**
 * Re-scores fused candidates (lexical signals, a rerank API, an LLM, a local cross-encoder). Returns at
 * most `topN` scores, best first; ids it does not return keep their fused order after the returned ones.
 * @throws HierdocError E_RERANK (or E_TIMEOUT / E_CONFIG); the tool falls back to the fused order.
 */
export interface Reranker {
  readonly id: string;
  rerank(query: string, candidates: RerankCandidate[], topN: number, options?: { signal?: AbortSignal }): Promise<RerankScore[]>;
}
