import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { HierdocError, ToolConfigSchema, type Embedder, type ToolConfig, type VectorStoreAdapter } from "@hierdoc/core";
import { createContextGenerator } from "@hierdoc/contextualizer";
import { createEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool, loadToolConfig, redactConfig } from "@hierdoc/tool";

/** Options every index command accepts. */
export interface IndexOptions {
  index?: string;
  config?: string;
  tool?: string;
}

/** Name of the file in the index folder that records how the index was built. */
export const MANIFEST = "hierdoc.json";

/** The index folder: `--index`, else `./.hierdoc`. */
export function indexDirOf(opts: IndexOptions): string {
  return resolve(opts.index ?? ".hierdoc");
}

/** The cache folder for converted embeddings: HIERDOC_CACHE_DIR, else ~/.cache/hierdoc. */
export function cacheDir(): string {
  return process.env.HIERDOC_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "hierdoc");
}

/**
 * The tool config to use: `--config FILE --tool NAME` when given, else the config recorded in the index,
 * else the defaults with the given sources.
 */
export function resolveConfig(opts: IndexOptions, sources: string[] = []): ToolConfig {
  if (opts.config) {
    let text: string;
    try {
      text = readFileSync(opts.config, "utf8");
    } catch (err) {
      throw new HierdocError("E_INPUT_NOT_FOUND", `${opts.config}: cannot read the config file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, {
        details: { file: opts.config },
      });
    }
    return loadToolConfig(text, { file: opts.config, tool: opts.tool, env: (name) => process.env[name] });
  }
  const manifest = readManifest(indexDirOf(opts));
  if (manifest?.config) {
    const parsed = ToolConfigSchema.safeParse(manifest.config);
    if (parsed.success) return parsed.data;
  }
  return ToolConfigSchema.parse({ name: "default", type: "hierarchical_document", source: sources.length > 0 ? sources : "." });
}

interface Manifest {
  version: 1;
  config: unknown;
  embedder: { id: string; dimensions: number };
  store: string;
  updatedAt: string;
}

/** Reads the index manifest, or null when the folder holds no index. */
export function readManifest(indexDir: string): Manifest | null {
  const path = join(indexDir, MANIFEST);
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Manifest;
  } catch (err) {
    throw new HierdocError("E_INDEX_CORRUPT", `${path}: not valid JSON (${(err as Error).message})`, { details: { file: path } });
  }
}

/** Writes the manifest atomically (temp file + rename); secrets are redacted. */
export function writeManifest(indexDir: string, tool: HierarchicalDocumentTool): void {
  mkdirSync(indexDir, { recursive: true });
  const path = join(indexDir, MANIFEST);
  const manifest: Manifest = {
    version: 1,
    config: redactConfig(tool.config),
    embedder: { id: tool.embedder.id, dimensions: tool.embedder.dimensions },
    store: tool.store.id,
    updatedAt: new Date().toISOString(),
  };
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + "\n");
  renameSync(tmp, path);
}

/** Creates the store adapter a config names. */
export function createStore(config: ToolConfig, indexDir: string): VectorStoreAdapter {
  const vs = config.vector_store;
  switch (vs.provider) {
    case "in-memory":
    case "memory":
      return new MemoryStore({ dir: vs.path ? resolve(vs.path) : join(indexDir, "store") });
    default:
      throw new HierdocError("E_CONFIG", `vector_store.provider "${vs.provider}" is not available in this CLI build (available: in-memory)`, {
        details: { path: "vector_store.provider" },
      });
  }
}

/** Creates the embedder a config names (GloVe by default, cached under {@link cacheDir}). */
export async function createConfiguredEmbedder(config: ToolConfig, onProgress?: (msg: string) => void): Promise<Embedder> {
  return createEmbedder(config.embedding, { cacheDir: cacheDir(), onProgress });
}

/**
 * Opens the tool over an index folder. `mustExist` makes a missing index an error (search, section, …).
 * @throws HierdocError E_INDEX_MISSING when `mustExist` and the folder has no index.
 */
export async function openTool(
  opts: IndexOptions,
  { mustExist, sources = [], onWarning, onProgress }: { mustExist: boolean; sources?: string[]; onWarning?: (m: string) => void; onProgress?: (m: string) => void },
): Promise<HierarchicalDocumentTool> {
  const indexDir = indexDirOf(opts);
  if (mustExist && !readManifest(indexDir)) {
    throw new HierdocError("E_INDEX_MISSING", `no index in ${indexDir}: run \`hierdoc ingest PATH\` first (or pass --index DIR)`, {
      details: { file: indexDir },
    });
  }
  const config = resolveConfig(opts, sources);
  // An LLM context writer only when the config names one; otherwise the tool's structural context.
  const contextGenerator = config.context_model
    ? createContextGenerator(config, { cacheDir: join(indexDir, "contexts"), env: (name) => process.env[name], configPath: opts.tool ? `tool ${opts.tool}` : undefined })
    : undefined;
  const embedder = await createConfiguredEmbedder(config, onProgress);
  const store = createStore(config, indexDir);
  return HierarchicalDocumentTool.open({ config, indexDir, store, embedder, onWarning, contextGenerator });
}
