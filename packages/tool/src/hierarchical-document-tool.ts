import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { SpanStatusCode, trace } from "@opentelemetry/api";
import picomatch from "picomatch";
import {
  HierdocError,
  isHierdocError,
  type ChunkRecord,
  type ContextGenerator,
  type ConverterLimitsConfig,
  type DefinitionEntry,
  type Embedder,
  type KeywordDocument,
  type KeywordIndex,
  type Reranker,
  type ScoredId,
  type SearchFilters,
  type SearchMode,
  type SearchResponse,
  type ToolConfig,
  type VectorStoreAdapter,
} from "@hierdoc/core";
import { StructuralContextGenerator } from "@hierdoc/contextualizer";
import { SectionResolver, TermIndex, type ResolverEntry } from "@hierdoc/definitions";
import { Bm25Index, ExactIndex, isIdLookupQuery } from "@hierdoc/keyword-search";
import { SearchRouter } from "@hierdoc/hybrid-fusion";
import { Catalog, citationKey, type CatalogEntry } from "./catalog.js";
import { CodeTitleScope } from "./code-title-scope.js";
import type { IngestContext } from "./ingest-pipeline.js";
import type { IngestProgress, IngestReport } from "./ingest-types.js";
import { acquireIndexLock, tryIndexLock } from "./index-lock.js";
import { describeStoreInfo, storeOpenInfo, type OpenInfo } from "./open-info.js";
import { readDerivedState, removeDerivedState, writeDerivedState, type LoadedDerivedState } from "./derived-state.js";
import { DERIVED_DELTA_FILE_NAME, readDerivedDelta, removeDerivedDelta, writeDerivedDelta, type DerivedDelta } from "./derived-delta.js";
import { LayeredResolver, type ReferenceResolver } from "./layered-resolver.js";
import { writeIndexManifest } from "./index-manifest.js";
import { isUnitOf, type IncomingReference } from "./incoming-reference.js";
import { CandidatePrefetch } from "./candidate-prefetch.js";
import { rerankHits } from "./rerank-stage.js";
import { chainMatches, groupSections, splitQualifiedId, type SectionMatch } from "./section-lookup.js";
import { buildResults } from "./search-results.js";
import { TitlePhraseIndex } from "./title-phrase.js";
import { tracedKeywordIndex } from "./traced-keyword-index.js";

/** Where a tool keeps its persisted derived indexes and what it is built from. */
export interface ToolOptions {
  config: ToolConfig;
  /** Folder for the keyword index, lock and manifest (the memory store usually lives under it too). */
  indexDir: string;
  store: VectorStoreAdapter;
  embedder: Embedder;
  /** Context writer; default: structural context when `contextual_embeddings` is on, none otherwise. */
  contextGenerator?: ContextGenerator;
  /** Keyword index to use instead of the persisted in-memory BM25 (e.g. OpenSearch). */
  keywordIndex?: KeywordIndex;
  /** Receives warnings (degraded legs, stale indexes rebuilt). Default: silent. */
  onWarning?: (message: string) => void;
  /** Reranker applied after fusion (see the config's `rerank` block for `candidates` and `top_n`). Default: none. */
  reranker?: Reranker;
  /** Receives debug lines (e.g. why the persisted derived state was not used at open). Default: silent. */
  onDebug?: (message: string) => void;
}

/** Options of {@link HierarchicalDocumentTool.search}. */
export interface ToolSearchOptions {
  topK?: number;
  mode?: SearchMode;
  filters?: SearchFilters;
  /** Set false to skip the reranking stage (default: on for hybrid searches when a reranker is configured). */
  rerank?: boolean;
}

/** Options of {@link HierarchicalDocumentTool.ingest}. */
export interface ToolIngestOptions {
  onProgress?: (event: IngestProgress) => void;
  /** Re-ingest files even when their content hash is unchanged. */
  force?: boolean;
  signal?: AbortSignal;
  /** Globs of extra text files a folder or glob ingest takes, added to the config's `include`. */
  include?: string[];
  /** Globs of files a folder or glob ingest leaves out, added to the config's `exclude`. */
  exclude?: string[];
  /** Converter limits for this run, over the config's `limits`. */
  limits?: Partial<ConverterLimitsConfig>;
  /** Worker threads converting and parsing files for this run (over `ingest.workers`; 0 = this thread). */
  workers?: number;
}

const MAX_TOP_K = 100;
/** The ingest pipeline (and with it the converters, chunker and extractors), loaded on the first ingest. */
const loadIngestPipeline = () => import("./ingest-pipeline.js");

const tracer = trace.getTracer("@hierdoc/tool");

/**
 * The hierarchical document tool: ingests structured documents into a store, a keyword index and an
 * exact-id index, and answers searches with section provenance, definitions and cross-references.
 */
export class HierarchicalDocumentTool {
  readonly config: ToolConfig;
  readonly indexDir: string;
  readonly store: VectorStoreAdapter;
  readonly embedder: Embedder;
  private readonly catalog = new Catalog();
  private readonly titles = new TitlePhraseIndex(this.catalog);
  private readonly codeTitles = new CodeTitleScope(this.catalog);
  private exact = new ExactIndex();
  private terms = new TermIndex([]);
  private resolver: ReferenceResolver = new SectionResolver([]);
  /**
   * The `derived.bin` the catalog is served from (its stamp and fingerprint) and its section resolver, while
   * the catalog is: an ingest then saves only what changed since (`derived-delta.json`).
   */
  private base: { stamp: string; fingerprint: string; resolver: SectionResolver } | null = null;
  /** Sizes of the delta the last {@link loadDerived} replayed, if any. */
  private loadedDelta: OpenInfo["delta"];
  /** The store stamp the derived files on disk (derived.bin, plus its delta) describe, once known. */
  private savedStamp: string | null = null;
  private keyword: KeywordIndex;
  private readonly ownsKeyword: boolean;
  /** The context writer in use (LLM, structural, or none). */
  readonly contextGenerator: ContextGenerator | undefined;
  private readonly warn: (message: string) => void;
  /** The reranker applied after fusion, if any. */
  readonly reranker: Reranker | undefined;
  private definitions = new Map<string, DefinitionEntry[]>();
  /** Milliseconds spent opening (store load + derived index rebuild). */
  openMs = 0;
  /** Whether the last open loaded the persisted derived state or scanned the store, and why. */
  openInfo: OpenInfo = { derived: "scanned" };
  private readonly debug: (message: string) => void;

  private constructor(options: ToolOptions) {
    this.config = options.config;
    this.indexDir = options.indexDir;
    this.store = options.store;
    this.embedder = options.embedder;
    this.warn = options.onWarning ?? (() => {});
    this.debug = options.onDebug ?? (() => {});
    this.reranker = options.reranker;
    this.ownsKeyword = !options.keywordIndex;
    this.keyword = options.keywordIndex ?? new Bm25Index({ variant: options.config.keyword_index.variant });
    this.contextGenerator =
      options.contextGenerator ??
      (options.config.contextual_embeddings
        ? new StructuralContextGenerator({
            termsFor: ({ chunk }) => this.terms.termsUsedIn(chunk.content, chunk.sourcePath).map((d) => d.term),
          })
        : undefined);
  }

  /**
   * Opens the store, then loads the catalog, exact index, definitions and resolver from the persisted derived
   * state (`derived.bin`) when its stamp matches the store (see {@link OpenInfo}); otherwise rebuilds them from
   * one scan of the store and saves them. Reloads the persisted keyword index when it matches the store,
   * rebuilds it otherwise.
   * @throws HierdocError from the store (E_EMBEDDER_MISMATCH, E_STORE_UNAVAILABLE, E_INDEX_CORRUPT, …)
   */
  static async open(options: ToolOptions): Promise<HierarchicalDocumentTool> {
    const t0 = performance.now();
    const tool = new HierarchicalDocumentTool(options);
    await mkdir(options.indexDir, { recursive: true });
    await tool.store.open({ embedderId: tool.embedder.id, dimensions: tool.embedder.dimensions });
    const stamp = await tool.storeStamp();
    const reason = stamp === null ? "the store cannot tell when its records change" : await tool.loadDerived(stamp);
    const storeInfo = storeOpenInfo(tool.store);
    if (storeInfo) tool.debug(`store ${tool.store.id} opened: ${describeStoreInfo(storeInfo)}`);
    if (reason !== null) {
      tool.openInfo = { derived: "scanned", reason, ...(storeInfo ? { store: storeInfo } : {}) };
      tool.debug(`derived state scanned from the store: ${reason}`);
      // One streaming pass over the store: only the catalog, exact index and definitions keep anything.
      tool.catalog.load([]);
      await tool.rebuildDerived(tool.store.scan());
      const unsaved = stamp === null ? null : await tool.openWrite(() => tool.saveDerived(stamp));
      if (unsaved) {
        tool.openInfo.reason = `${reason}; not saved: ${unsaved}`;
        tool.warn(`the derived state was scanned but not saved: ${unsaved}`);
      }
    } else {
      tool.openInfo = { derived: "loaded", ...(tool.loadedDelta ? { delta: tool.loadedDelta } : {}), ...(storeInfo ? { store: storeInfo } : {}) };
      const d = tool.loadedDelta;
      tool.debug(`derived state loaded from derived.bin${d ? ` + ${DERIVED_DELTA_FILE_NAME} (${d.added} chunks added, ${d.removed} removed, ${d.sources} sources changed)` : ""}`);
    }
    tool.openInfo.keyword = tool.ownsKeyword ? await tool.loadOrRebuildKeyword() : { state: "external" };
    tool.debug(`keyword index ${tool.openInfo.keyword.state}${tool.openInfo.keyword.reason ? `: ${tool.openInfo.keyword.reason}` : ""}`);
    tool.openMs = performance.now() - t0;
    tool.debug(`opened in ${Math.round(tool.openMs)} ms (${tool.catalog.size} chunks)`);
    return tool;
  }

  /** Number of chunks in the index. */
  get chunkCount(): number {
    return this.catalog.size;
  }

  /** Sources (files) in the index. */
  sources(): string[] {
    return this.catalog.sources();
  }

  /**
   * Ingests files, folders or globs incrementally: unchanged files are skipped, changed ones replaced,
   * files gone from an ingested folder removed from every index. A bad file is reported and skipped;
   * the others still ingest. Holds the index's write lock for the duration. The first ingest of a process
   * loads the ingest pipeline (converters, chunker, extractors), which search never needs.
   */
  async ingest(sources: string[], options: ToolIngestOptions = {}): Promise<IngestReport> {
    const lock = await acquireIndexLock(this.indexDir);
    try {
      const { runIngest } = await loadIngestPipeline();
      // The store is about to change: a crash from here on must not leave a derived state that looks current
      // (a kept derived.bin no longer matches the store's stamp once it changes; its delta would, so it goes).
      const hadDelta = existsSync(join(this.indexDir, DERIVED_DELTA_FILE_NAME));
      await removeDerivedDelta(this.indexDir);
      if (!this.base) await removeDerivedState(this.indexDir);
      // What was removed must be written again at the end, even if the store did not change.
      if (hadDelta || !this.base) this.savedStamp = null;
      const ctx: IngestContext = {
        config: this.config,
        store: this.store,
        embedder: this.embedder,
        keyword: this.keyword,
        exact: this.exact,
        catalog: this.catalog,
        contextGenerator: this.contextGenerator,
        onDefinitions: (sourcePath, entries) => this.replaceDefinitions(sourcePath, entries),
        onProgress: options.onProgress,
        // After a checkpoint the finished files are durable: the folder is an index from then on, even if killed.
        onCheckpoint: () => writeIndexManifest(this.indexDir, { config: this.config, embedder: this.embedder, store: this.store.id }),
        force: options.force ?? false,
        signal: options.signal,
        selection: { include: options.include, exclude: options.exclude },
        limits: { ...this.config.limits, ...definedOnly(options.limits ?? {}) },
        workers: options.workers,
      };
      const report = await tracer.startActiveSpan("hierarchical_document.ingest", async (span) => {
        try {
          const r = await runIngest(sources, ctx);
          span.setAttributes({
            "ingest.files": r.files.length,
            "ingest.files_failed": r.files.filter((f) => f.outcome === "failed").length,
            "ingest.chunks_written": r.chunksWritten,
            "ingest.chunks_deleted": r.chunksDeleted,
            "ingest.tokens": r.tokens,
          });
          return r;
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          // The pipeline flushed the files finished before the cancel: save their keyword index with them.
          if (isHierdocError(err, "E_CANCELLED")) await this.persistIndexes();
          throw err;
        } finally {
          span.end();
        }
      });
      const t = performance.now();
      // An ingest where every file was unchanged leaves hierdoc.json as it was (no reload for a watching server).
      await this.persistIndexes({ changed: report.files.some((f) => f.outcome !== "unchanged") || report.chunksDeleted > 0 });
      report.timingsMs.persist = (report.timingsMs.persist ?? 0) + (performance.now() - t);
      return report;
    } finally {
      await lock.release();
    }
  }

  /**
   * Saves the BM25 index (when owned) and the manifest, and refreshes what search derives from the catalog.
   * `changed: false` (nothing added, updated, removed or failed) keeps a manifest that records the same facts.
   */
  private async persistIndexes(options: { changed: boolean } = { changed: true }): Promise<void> {
    if (this.ownsKeyword && this.keyword instanceof Bm25Index) {
      await this.keyword.save(join(this.indexDir, "keyword"), { fingerprint: this.keywordFingerprint() });
    }
    await writeIndexManifest(this.indexDir, { config: this.config, embedder: this.embedder, store: this.store.id }, { keepIfSame: !options.changed });
    // Over a loaded derived.bin only the changed sources are re-read (code titles, resolver); else all of them.
    const changes = this.base ? this.catalog.changesSinceLoad() : null;
    if (changes) this.layerResolver(changes.sources);
    else this.rebuildResolver();
    this.titles.invalidate();
    const stamp = await this.storeStamp();
    if (stamp !== null) await this.saveDerived(stamp, changes);
  }

  /** The store's identity of its current contents (id, count, its own stamp); null when it has no stamp. */
  private async storeStamp(): Promise<string | null> {
    if (!this.store.capabilities.persistent || !this.store.stamp) return null;
    const own = await this.store.stamp();
    return own === null ? null : JSON.stringify({ store: this.store.id, count: await this.store.count(), stamp: own });
  }

  /**
   * Loads the persisted derived state (`derived.bin`, with the changes of `derived-delta.json` on top when the
   * store has changed since by exactly those); returns null when loaded, else why it was not.
   */
  private async loadDerived(stamp: string): Promise<string | null> {
    let state: LoadedDerivedState | null;
    try {
      state = await readDerivedState(this.indexDir);
    } catch (err) {
      return `unreadable (${(err as Error).message})`;
    }
    if (!state) return "no derived state saved";
    this.loadedDelta = undefined;
    let delta: DerivedDelta | null = null;
    if (state.stamp !== stamp) {
      const stale = `stale (saved for ${state.stamp}, the store is ${stamp}`;
      try {
        delta = await readDerivedDelta(this.indexDir);
      } catch (err) {
        return `${stale}; ${(err as Error).message})`;
      }
      if (!delta) return `${stale})`;
      if (delta.base.stamp !== state.stamp || delta.base.fingerprint !== state.fingerprint) return `${stale}; ${DERIVED_DELTA_FILE_NAME} was saved over another derived.bin)`;
      if (delta.stamp !== stamp) return `${stale}; with ${DERIVED_DELTA_FILE_NAME} for ${delta.stamp})`;
    }
    let replaced = false;
    try {
      const exact = ExactIndex.importState(state.exact, state.catalog);
      const resolver = SectionResolver.importState(state.resolver, state.catalog);
      replaced = true;
      this.catalog.loadFlat(state.catalog, state.fingerprint);
      this.exact = exact;
      this.resolver = resolver;
      this.base = { stamp: state.stamp, fingerprint: state.fingerprint, resolver };
      this.definitions = new Map(state.definitions);
      if (state.codeTitles) this.codeTitles.load(state.codeTitles);
      else this.codeTitles.rebuild();
      if (delta) this.applyDelta(delta, state);
      this.terms = new TermIndex([...this.definitions.values()].flat());
      this.titles.invalidate();
      this.savedStamp = stamp;
      return null;
    } catch (err) {
      // Only a delta that does not fit its derived.bin fails after the state was replaced: the caller scans.
      if (replaced) {
        this.base = null;
        this.catalog.load([]);
        this.exact = new ExactIndex();
        this.definitions.clear();
      }
      return `unusable (${(err as Error).message})`;
    }
  }

  /** Replays a {@link DerivedDelta} on the state just loaded from the `derived.bin` it was saved over. */
  private applyDelta(delta: DerivedDelta, state: LoadedDerivedState): void {
    const removed = delta.removed.map((p) => {
      const id = state.catalog.idAt(p);
      if (id === undefined) throw new Error(`${DERIVED_DELTA_FILE_NAME} removes position ${p}, derived.bin has ${state.catalog.count} chunks`);
      return id;
    });
    this.exact.remove(removed);
    for (const id of removed) this.catalog.delete(id);
    for (const entry of delta.added) this.exact.addChunk(this.catalog.put(entry as unknown as ChunkRecord));
    this.catalog.adoptFingerprint(delta.fingerprint);
    for (const source of delta.changedSources) this.definitions.delete(source);
    for (const [source, entries] of delta.definitions) this.definitions.set(source, entries);
    this.codeTitles.load(delta.codeTitles);
    this.layerResolver(new Set(delta.changedSources), false);
    this.loadedDelta = { added: delta.added.length, removed: delta.removed.length, sources: delta.changedSources.length };
  }

  /**
   * Saves the derived state with the store's stamp; a failure is a warning. Over a loaded `derived.bin` with
   * few changes (at most {@link deltaLimit}) only the changes are written (`derived-delta.json`); otherwise
   * the catalog, definitions, exact index and resolver are written whole to `derived.bin`.
   */
  private async saveDerived(stamp: string, changes: ReturnType<Catalog["changesSinceLoad"]> = null): Promise<void> {
    // The store did not change since the files were loaded or saved (an ingest that failed or changed nothing):
    // leave them as they are, byte for byte.
    if (stamp === this.savedStamp) return;
    const base = this.base;
    if (base && changes && changes.removed.length + changes.added.length <= deltaLimit(changes.baseCount)) {
      const sources = [...changes.sources];
      try {
        await writeDerivedDelta(this.indexDir, {
          base: { stamp: base.stamp, fingerprint: base.fingerprint }, stamp, fingerprint: this.catalog.fingerprint(),
          removed: changes.removed, added: changes.added, changedSources: sources,
          definitions: sources.flatMap((s): Array<[string, DefinitionEntry[]]> => (this.definitions.has(s) ? [[s, this.definitions.get(s)!]] : [])),
          codeTitles: this.codeTitles.entries(),
        });
        this.savedStamp = stamp;
      } catch (err) {
        this.warn(`could not save the derived state (${(err as Error).message}); the next open scans the store`);
      }
      return;
    }
    const resolver = this.resolver instanceof SectionResolver ? this.resolver : this.rebuildResolver();
    const catalog = [...this.catalog.all()];
    const position = new Map(catalog.map((e, i) => [e.id, i]));
    const positionOf = (id: string) => position.get(id);
    const exact = this.exact.exportState(positionOf);
    const resolverState = resolver.exportState(positionOf);
    if (!exact || !resolverState) {
      this.debug("derived state not saved: the exact index or resolver names a chunk the catalog does not hold");
      return;
    }
    this.base = null;
    try {
      await removeDerivedDelta(this.indexDir);
      await writeDerivedState(this.indexDir, { stamp, fingerprint: this.catalog.fingerprint(), catalog, definitions: [...this.definitions], exact, resolver: resolverState, codeTitles: this.codeTitles.entries() });
    } catch (err) {
      this.warn(`could not save the derived state (${(err as Error).message}); the next open scans the store`);
      return;
    }
    // Serve the catalog, exact index and resolver from the file just written (as an open would), so the next
    // ingest of this process saves only its changes.
    const why = await this.loadDerived(stamp);
    if (why !== null) this.debug(`derived state saved but not reloaded: ${why}`);
  }

  /**
   * Searches the index. `topK` defaults to the config's `search.top_k` (10) and is at most 100.
   * @throws HierdocError E_INVALID_ARGUMENT for an empty query or a bad top-k; E_* when every leg fails.
   */
  async search(query: string, options: ToolSearchOptions = {}): Promise<SearchResponse> {
    const topK = options.topK ?? this.config.search.top_k;
    const mode = options.mode ?? "hybrid";
    if (!query || !query.trim()) throw new HierdocError("E_INVALID_ARGUMENT", "the query is empty");
    if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
      throw new HierdocError("E_INVALID_ARGUMENT", `top-k must be an integer from 1 to ${MAX_TOP_K} (got ${topK})`);
    }
    return tracer.startActiveSpan("hierarchical_document.search", async (span) => {
      try {
        const allowIds = this.allowedIds(options.filters);
        const titleHits = mode === "hybrid" || mode === "exact" ? this.titles.lookup(query) : [];
        const exact = this.exact;
        const codeTitles = this.codeTitles;
        const router = new SearchRouter({
          store: this.store,
          keyword: tracedKeywordIndex(this.keyword),
          exact: {
            lookup: (q, opts) => codeTitles.prefer(q, mergeExactHits(exact.lookup(q, opts), titleHits, opts?.allowIds)),
          },
          embedder: this.embedder,
          weights: this.config.search.weights,
          rrfK: this.config.search.rrf_k,
          fusion: this.config.search.fusion,
        });
        const liftExact = isIdLookupQuery(query) || titleHits.length > 0;
        // Hybrid searches only: single-leg modes show one leg as is, and id / title lookups are answered by the
        // exact index (lifted to rank 1), which the stage would only blur.
        const reranker = options.rerank === false || liftExact || mode !== "hybrid" ? undefined : this.reranker;
        const rc = this.config.rerank;
        const routeK = reranker ? Math.max(topK, rc?.candidates ?? 50) : topK;
        // While the dense leg searches, the keyword leg's first hits are read (and their terms matched) ahead.
        const prefetch = reranker ? new CandidatePrefetch(this.store, (r) => this.terms.termsUsedIn(r.content, r.sourcePath)) : undefined;
        const onLegResults = (leg: string, res: readonly { id: string }[]): void => {
          if (leg === "keyword") prefetch?.start(res.slice(0, routeK).map((h) => h.id));
        };
        const routed = await router.search(query, { topK: routeK, mode, allowIds, liftExact, onLegResults });
        for (const w of routed.warnings) this.warn(w);
        let hits = routed.hits;
        let records: ChunkRecord[] | undefined;
        const timingsMs: Record<string, number> = { ...routed.timingsMs };
        if (reranker) {
          const t0 = performance.now();
          records = await (prefetch ?? this.store).get(hits.map((h) => h.id));
          const topN = Math.min(topK, rc?.top_n ?? topK);
          const out = await rerankHits(reranker, query, hits, records, topN, (r) => this.terms.termsUsedIn(r.content, r.sourcePath));
          hits = out.hits;
          if (out.warning) {
            routed.warnings.push(out.warning);
            this.warn(out.warning);
          }
          timingsMs.rerank = performance.now() - t0;
        }
        hits = hits.slice(0, topK);
        const t = performance.now();
        const kept = new Set(hits.map((h) => h.id));
        const recs = records ? records.filter((r) => kept.has(r.id)) : await this.store.get(hits.map((h) => h.id));
        const results = buildResults(hits, recs, this.terms, this.resolver, (id) => this.catalog.get(id)?.sourcePath);
        const response: SearchResponse = {
          results,
          route: routed.route,
          warnings: routed.warnings,
          timingsMs: { ...timingsMs, attach: performance.now() - t },
        };
        span.setAttributes({
          "search.mode": routed.route,
          "search.requested_mode": mode,
          "search.provider": this.store.id,
          "search.top_k": topK,
          "search.result_count": results.length,
        });
        return response;
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    });
  }

  /**
   * Chunks of a section (by canonical id or alias; a unit id finds the chunk holding it), in order. An id
   * citing a code title ("5 U.S.C. 553", "title 5 section 553") is looked up in that title. When the id names
   * several sections ("Section 1" in several chapters), the first in rank and document order is returned and
   * a warning lists every match by its qualified id ("CHAPTER IV › Section 1"); pass one of those to choose.
   */
  async section(id: string): Promise<ChunkRecord[]> {
    const matches = this.sectionMatches(id);
    if (matches.length === 0) return [];
    if (matches.length > 1) {
      const names = matches.map((m) => `${m.qualifiedId} (${m.sourcePath})`);
      this.warn(`"${id}" names ${matches.length} sections; showing ${names[0]}; the others: ${names.slice(1).join(", ")}. Pass a qualified id such as "${matches[1].qualifiedId}" to choose one`);
    }
    return this.store.get(matches[0].chunkIds);
  }

  /**
   * Every section an id names, best first, each with its chunk ids in order and a qualified id that names only
   * it. The id may be qualified by parents, separated by "›" (or " > "): "Chapter III › Section 1" keeps the
   * sections whose parent chain has a title starting "Chapter III" (any case). Empty when nothing matches.
   */
  sectionMatches(id: string): SectionMatch[] {
    const { qualifiers, id: bare } = splitQualifiedId(id);
    const hits = this.codeTitles.prefer(bare, this.exact.lookup(bare));
    if (hits.length === 0) return [];
    const top = hits.filter((h) => h.score === hits[0].score);
    const keyOf = (e: CatalogEntry) => `${e.sourcePath}\u0000${e.sectionId}\u0000${e.parentChain.join("\u0000")}`;
    const rank = new Map<string, number>();
    for (const h of top) {
      const e = this.catalog.get(h.id);
      if (e && !rank.has(keyOf(e))) rank.set(keyOf(e), rank.size);
    }
    // Only the sources of the top hits hold their sections (entries of one section keep their store order).
    const entries = [...new Set(top.map((h) => this.catalog.get(h.id)?.sourcePath ?? ""))]
      .flatMap((source) => this.catalog.entriesOf(source))
      .filter((e) => rank.has(keyOf(e)))
      .sort((a, b) => rank.get(keyOf(a))! - rank.get(keyOf(b))! || a.chunkIndex - b.chunkIndex);
    return groupSections(entries).filter((m) => chainMatches(m.parentChain, qualifiers));
  }

  /** Definitions of a term (plural-aware, case-insensitive), from the corpus' own definitions. */
  define(term: string): DefinitionEntry[] {
    return this.terms.define(term);
  }

  /** Every defined term in the corpus. */
  listDefinitions(): DefinitionEntry[] {
    return this.terms.list();
  }

  /**
   * Outgoing and incoming cross-references of a section. A citation counts as incoming when it resolves to
   * the section itself or to a unit inside it ("point (a) of Article 6(1)" cites Article 6): the resolved
   * target lies in one of the section's chunks, or its id is the section id followed by a unit ("6(1)",
   * ".2"), never merely a longer number ("Article 60"). Each incoming entry keeps the citation's exact text
   * and the exact unit it resolved to (`targetSectionId`). Citations made inside the section itself are not
   * listed as incoming. Only the records of chunks that can cite the section are read (see
   * {@link CatalogEntry.citedKeys}), in store order; `readAll` reads every record of the store instead (slower,
   * the same answer: for checking).
   */
  async refs(id: string, options: { readAll?: boolean } = {}): Promise<{ sectionId: string | null; outgoing: ChunkRecord["crossReferences"]; incoming: IncomingReference[] }> {
    const records = await this.section(id);
    if (records.length === 0) return { sectionId: null, outgoing: [], incoming: [] };
    const sectionId = records[0].sectionId;
    const sourcePath = records[0].sourcePath;
    const outgoing = records.flatMap((r) => r.crossReferences.map((x) => this.resolver.resolve(x, r.sourcePath)));
    const incoming: IncomingReference[] = [];
    // Only chunks citing a key of this section (or a citation without one) can cite it: read just those records.
    const keys = citableKeys(records);
    const candidates = keys.has("") || options.readAll ? null : this.catalog.idsCiting(keys.add(""));
    for await (const r of candidates ? this.recordsOf(candidates) : this.store.scan()) {
      if (r.sourcePath === sourcePath && r.sectionId === sectionId) continue;
      for (const x of r.crossReferences) {
        const resolved = this.resolver.resolve(x, r.sourcePath);
        if (resolved.external || !resolved.targetSectionId) continue;
        const target = resolved.targetChunkId ? this.catalog.get(resolved.targetChunkId) : undefined;
        const targetSource = target?.sourcePath ?? r.sourcePath;
        if (targetSource !== sourcePath) continue;
        const inside = target?.sectionId === sectionId || isUnitOf(resolved.targetSectionId, sectionId);
        if (inside) incoming.push({ fromSectionId: r.sectionId, sourcePath: r.sourcePath, text: x.text, targetSectionId: resolved.targetSectionId });
      }
    }
    return { sectionId, outgoing, incoming };
  }

  /** The records of some chunk ids, read from the store a batch at a time. */
  private async *recordsOf(ids: string[]): AsyncIterable<ChunkRecord> {
    for (let i = 0; i < ids.length; i += RECORD_BATCH) yield* await this.store.get(ids.slice(i, i + RECORD_BATCH));
  }

  /** Counts for `hierdoc stats`. */
  async stats(): Promise<{ files: number; chunks: number; definitions: number; keywordDocs: number; embedder: string; dimensions: number; store: string; capabilities: object }> {
    return {
      files: this.catalog.sources().length,
      chunks: this.catalog.size,
      definitions: this.terms.list().length,
      keywordDocs: await this.keyword.size(),
      embedder: this.embedder.id,
      dimensions: this.embedder.dimensions,
      store: this.store.id,
      capabilities: this.store.capabilities,
    };
  }

  /** Closes the store. */
  async close(): Promise<void> {
    await this.store.close();
  }

  private allowedIds(filters: SearchFilters | undefined): Set<string> | undefined {
    if (!filters) return undefined;
    const sources = filters.source === undefined ? undefined : Array.isArray(filters.source) ? filters.source : [filters.source];
    const types = filters.chunkType === undefined ? undefined : new Set(Array.isArray(filters.chunkType) ? filters.chunkType : [filters.chunkType]);
    const prefix = filters.sectionPrefix;
    if (!sources && !types && !prefix) return undefined;
    const match = sources ? picomatch(sources) : undefined;
    const out = new Set<string>();
    // The source glob is matched once per source, and only the entries of matching sources are read.
    for (const source of this.catalog.sources()) {
      if (match && !match(source)) continue;
      for (const e of this.catalog.entriesOf(source)) {
        if (types && !types.has(e.chunkType)) continue;
        if (prefix && !hasIdPrefix(e.sectionId, prefix) && !e.sectionAliases.some((a) => hasIdPrefix(a, prefix))) continue;
        out.add(e.id);
      }
    }
    return out;
  }

  private async rebuildDerived(records: AsyncIterable<ChunkRecord>): Promise<void> {
    this.base = null;
    this.exact = new ExactIndex();
    this.definitions.clear();
    for await (const r of records) {
      // The exact index keeps the catalog entry's (pooled) strings rather than the record's.
      this.exact.addChunk(this.catalog.put(r));
      if (r.definitions.length > 0) {
        const list = this.definitions.get(r.sourcePath) ?? [];
        list.push(...r.definitions);
        this.definitions.set(r.sourcePath, list);
      }
    }
    this.terms = new TermIndex([...this.definitions.values()].flat());
    this.rebuildResolver();
  }

  /**
   * Sets the definitions of a source, keeping the term index equal to one built from every source's in order.
   * The source goes last (a re-ingested one too: a reopen replaying `derived-delta.json` orders it so, and
   * `define` lists a term's definitions in that order). A source new to the index only adds its entries (each
   * file of a first ingest costs its own definitions, not all of them so far); one that had definitions
   * rebuilds the index; a source without definitions before or after changes nothing.
   */
  private replaceDefinitions(sourcePath: string, entries: DefinitionEntry[]): void {
    const had = this.definitions.delete(sourcePath);
    if (!had && entries.length === 0) return;
    if (entries.length > 0) this.definitions.set(sourcePath, entries);
    if (had) this.terms = new TermIndex([...this.definitions.values()].flat());
    else this.terms.addAll(entries);
  }

  /** Re-reads every source's code title and builds the section resolver over every catalog entry. */
  private rebuildResolver(): SectionResolver {
    this.codeTitles.rebuild();
    const resolver = this.fullResolver();
    this.resolver = resolver;
    return resolver;
  }

  private fullResolver(): SectionResolver {
    return new SectionResolver(this.resolverEntries(this.catalog.all()));
  }

  /**
   * Over a loaded `derived.bin`: re-reads the code titles of the changed sources (unless `rereadTitles` is
   * false) and resolves through the base resolver and one built over the changed sources' entries alone
   * (see {@link LayeredResolver}).
   */
  private layerResolver(changed: Set<string>, rereadTitles = true): void {
    const base = this.base!;
    if (rereadTitles) this.codeTitles.rebuildSources(changed);
    const overlay = new SectionResolver(this.resolverEntries([...changed].flatMap((source) => this.catalog.entriesOf(source))));
    this.resolver = changed.size === 0 ? base.resolver : new LayeredResolver(base.resolver, changed, overlay, () => this.fullResolver());
  }

  private resolverEntries(entries: Iterable<CatalogEntry>): ResolverEntry[] {
    // Units (points, paragraphs) are targets of their own, so "point (a) of Article 6(1)" resolves to
    // "Article 6(1)" (in the chunk that holds it), not just to its article. A source that is a code title
    // is named by it ("5 U.S.C."), so "section 553 of title 5" resolves into it from any other source.
    const out: ResolverEntry[] = [];
    for (const e of entries) {
      const name = this.codeTitles.nameOf(e.sourcePath);
      const documentNames = name ? [name] : [];
      out.push({ sourcePath: e.sourcePath, sectionId: e.sectionId, aliases: e.sectionAliases, chunkId: e.id, documentNames });
      for (const u of e.unitIds) out.push({ sourcePath: e.sourcePath, sectionId: u, aliases: [], chunkId: e.id, documentNames });
    }
    return out;
  }

  /** Identity of the data and settings the persisted keyword index must match. */
  private keywordFingerprint(): string {
    return `${this.config.keyword_index.variant}:${this.catalog.fingerprint()}`;
  }

  /**
   * Runs a write an open makes in passing (a scanned derived state, a rebuilt or converted keyword index) under
   * the index lock ingest takes; returns null when written, else why not (the E_INDEX_LOCKED message when a
   * live process holds the lock, or why the lock could not be taken): the open then serves what it built.
   */
  private async openWrite(write: () => Promise<unknown>): Promise<string | null> {
    let lock: Awaited<ReturnType<typeof tryIndexLock>>;
    try {
      lock = await tryIndexLock(this.indexDir);
    } catch (err) {
      return `the index lock could not be taken (${(err as Error).message})`;
    }
    if (lock instanceof HierdocError) return lock.message;
    try {
      await write();
      return null;
    } finally {
      await lock.release();
    }
  }

  /** Reloads the persisted keyword index, or rebuilds it from a second pass over the store when stale; says which and why. */
  private async loadOrRebuildKeyword(): Promise<NonNullable<OpenInfo["keyword"]>> {
    const dir = join(this.indexDir, "keyword");
    const fingerprint = this.keywordFingerprint();
    let loaded: Bm25Index | null = null;
    let reason = "no keyword index saved";
    try {
      loaded = await Bm25Index.load(dir);
    } catch (err) {
      reason = `unreadable (${(err as Error).message})`;
      this.warn(`keyword index in ${dir} is unreadable (${(err as Error).message}); rebuilding it from the store`);
    }
    if (loaded && loaded.fingerprint === fingerprint) {
      this.keyword = loaded;
      if (!loaded.outdatedFormat) return { state: "loaded" };
      // A file of an older layout is converted on every load: rewrite it once in the current format.
      const why = `format ${loaded.loadedFormat} converted on load`;
      const saved = await this.openWrite(() => loaded.save(dir, { fingerprint })).then(
        (unsaved) => (unsaved ? (this.warn(`${dir} not rewritten in the current format: ${unsaved}`), `${why}, not rewritten: ${unsaved}`) : null),
        (err: Error) => (this.warn(`could not rewrite ${dir} in the current format (${err.message})`), `${why}, could not be rewritten`),
      );
      return { state: "converted", reason: saved ?? `${why}, rewritten in the current format` };
    }
    if (loaded) {
      reason = `stale (saved for ${loaded.fingerprint ?? "no fingerprint"}, the catalog is ${fingerprint})`;
      this.warn("keyword index is out of date with the store; rebuilding it");
    }
    const index = new Bm25Index({ variant: this.config.keyword_index.variant });
    const docs: KeywordDocument[] = [];
    for await (const r of this.store.scan()) docs.push({ id: r.id, text: r.indexedText, sourcePath: r.sourcePath });
    await index.upsert(docs);
    this.keyword = index;
    const unsaved = docs.length > 0 ? await this.openWrite(() => index.save(dir, { fingerprint })) : null;
    if (unsaved) this.warn(`the keyword index was rebuilt but not saved: ${unsaved}`);
    return { state: "rebuilt", reason: unsaved ? `${reason}; not saved: ${unsaved}` : reason };
  }
}

/** The keys of `o` whose value is not undefined. */
/** Records read from the store per `get` when `refs` reads the chunks that can cite a section. */
const RECORD_BATCH = 1000;

/**
 * The {@link citationKey}s a citation of a section can have: those of its id, aliases and units, and of what
 * follows each ". " in them ("Chapter 3. Section 12" is also cited as "Section 12").
 */
function citableKeys(records: readonly ChunkRecord[]): Set<string> {
  const keys = new Set<string>();
  for (const r of records) {
    for (const id of [r.sectionId, ...r.sectionAliases, ...(r.unitIds ?? [])]) {
      keys.add(citationKey(id));
      for (const m of id.matchAll(/\.\s?(?=\S)/g)) keys.add(citationKey(id.slice(m.index + m[0].length)));
    }
  }
  return keys;
}

/** Most changed chunks (removed + added) saved as a delta over a derived.bin of `baseChunks` before it is rewritten whole. */
function deltaLimit(baseChunks: number): number {
  return Math.floor(baseChunks / 10);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Exact-id hits plus title-phrase hits (an id hit keeps its higher score), best first. */
function mergeExactHits(ids: ScoredId[], titles: ScoredId[], allow?: ReadonlySet<string>): ScoredId[] {
  if (titles.length === 0) return ids;
  const best = new Map(ids.map((h) => [h.id, h.score]));
  for (const t of titles) if ((!allow || allow.has(t.id)) && !((best.get(t.id) ?? -1) >= t.score)) best.set(t.id, t.score);
  return [...best].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/** True when `id` starts with `prefix` at an id boundary: "Section 4" matches "Section 4(2)" and "4.1", not "Section 40". */
export function hasIdPrefix(id: string, prefix: string): boolean {
  if (!id.startsWith(prefix)) return false;
  const next = id.charAt(prefix.length);
  return next === "" || !/[\p{L}\p{N}]/u.test(next) || !/[\p{L}\p{N}]/u.test(prefix.charAt(prefix.length - 1));
}
