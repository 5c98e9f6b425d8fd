import { homedir } from "node:os";
import { join } from "node:path";
import { HierdocError, type Embedder, type ToolConfig } from "@hierdoc/core";
import { createEmbedder } from "@hierdoc/embeddings";
import { HierarchicalDocumentTool } from "@hierdoc/tool";
import { createKeywordIndex } from "./create-keyword-index.js";
import { createStore } from "./create-store.js";
import { withoutStoreSecrets } from "./store-registry.js";
import { indexDirOf, readManifest, type IndexLocation } from "./index-folder.js";
import { resolveConfig, type Env } from "./resolve-config.js";

/** The LLM context writers (with the Anthropic and OpenAI SDKs), loaded only when a config sets `context_model`. */
const loadContextualizer = () => import("@hierdoc/contextualizer");

/** The rerankers (with the Cohere, Voyage, Anthropic and OpenAI SDKs), loaded only when a `rerank` stage is on. */
const loadRerank = () => import("@hierdoc/rerank");

/** The cache folder for converted word vectors: HIERDOC_CACHE_DIR, else $XDG_CACHE_HOME/hierdoc, else ~/.cache/hierdoc. */
export function cacheDirOf(env: Env): string {
  return env("HIERDOC_CACHE_DIR") || join(env("XDG_CACHE_HOME") || join(homedir(), ".cache"), "hierdoc");
}

/** Creates the embedder a config names (GloVe by default, cached under {@link cacheDirOf}). */
export async function createConfiguredEmbedder(config: ToolConfig, env: Env, onProgress?: (msg: string) => void): Promise<Embedder> {
  return createEmbedder(config.embedding, { cacheDir: cacheDirOf(env), onProgress });
}

/** Options of {@link openIndex}. */
export interface OpenIndexOptions {
  /** A missing index is an error (search, section, …) rather than a new one (ingest). */
  mustExist: boolean;
  env: Env;
  /** Sources for the default config when neither a config file nor a manifest names them. */
  sources?: string[];
  onWarning?: (message: string) => void;
  onProgress?: (message: string) => void;
  /** Receives the tool's debug lines (why `derived.bin` or `bm25.bin` was not used, how the store opened its graph). */
  onDebug?: (message: string) => void;
  /**
   * An open tool (the one a server serves, when it reloads the same folder) whose embedder is used instead of
   * loading another one when the config names the same `embedding` settings. Tools do not close their
   * embedder, so both can use it.
   */
  reuseEmbedderOf?: Pick<HierarchicalDocumentTool, "config" | "embedder">;
}

/**
 * Opens the tool over an index folder: config (file, manifest or defaults), store adapter, embedder and,
 * when `context_model` is set, the LLM context writer with its cache in `<index>/contexts`; the reranker of the
 * `rerank` block, if any (API keys read through `env`). The context writer and reranker packages load only when configured.
 * @throws HierdocError E_INDEX_MISSING when `mustExist` and the folder has no index; E_CONFIG; store errors.
 */
export async function openIndex(loc: IndexLocation, options: OpenIndexOptions): Promise<HierarchicalDocumentTool> {
  const indexDir = indexDirOf(loc);
  if (options.mustExist && !readManifest(indexDir)) {
    throw new HierdocError("E_INDEX_MISSING", `no index in ${indexDir}: run \`hierdoc ingest PATH\` first (or pass --index DIR)`, {
      details: { file: indexDir },
    });
  }
  const config = resolveConfig(loc, options.env, options.sources);
  const contextGenerator = config.context_model
    ? (await loadContextualizer()).createContextGenerator(config, { cacheDir: join(indexDir, "contexts"), env: options.env, configPath: loc.tool ? `tool ${loc.tool}` : undefined })
    : undefined;
  const reuse = options.reuseEmbedderOf;
  const embedder =
    reuse && sameEmbedding(reuse.config, config) ? reuse.embedder : await createConfiguredEmbedder(config, options.env, options.onProgress);
  const store = await createStore(config, indexDir, options.env);
  // The tool records its config in the index manifest: the store's secret keys (connection strings with
  // passwords included) stay out of it, whatever their name.
  const recorded = { ...config, vector_store: withoutStoreSecrets(config) };
  const keywordIndex = await createKeywordIndex(config, options.env);
  const reranker =
    config.rerank && config.rerank.provider !== "none"
      ? (await loadRerank()).createReranker(config.rerank, { env: options.env, contextModel: config.context_model })
      : undefined;
  return HierarchicalDocumentTool.open({ config: recorded, indexDir, store, embedder, onWarning: options.onWarning, onDebug: options.onDebug, contextGenerator, keywordIndex, reranker });
}

/** Whether two configs name the same embedder settings (schema-parsed, so the keys come in one order). */
function sameEmbedding(a: ToolConfig, b: ToolConfig): boolean {
  return JSON.stringify(a.embedding) === JSON.stringify(b.embedding);
}
