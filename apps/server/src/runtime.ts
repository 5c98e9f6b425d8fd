// Opening a tool over an index folder, as the CLI does (copied from apps/cli/src/runtime.ts, read-only parts).
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { HierdocError, ToolConfigSchema, type ToolConfig, type VectorStoreAdapter } from "@hierdoc/core";
import { createEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool, loadToolConfig } from "@hierdoc/tool";

/** Where the index is and how it was configured (the CLI's `--index`, `--config`, `--tool`). */
export interface IndexLocation {
  /** Index folder; default `./.hierdoc`. */
  index?: string;
  /** agent.yaml with the tool entry; default: the config recorded in the index manifest. */
  config?: string;
  /** Tool name inside `config`. */
  toolName?: string;
}

const MANIFEST = "hierdoc.json";

function cacheDir(env: NodeJS.ProcessEnv): string {
  return env.HIERDOC_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "hierdoc");
}

function readManifestConfig(indexDir: string): { exists: boolean; config: unknown } {
  const path = join(indexDir, MANIFEST);
  if (!existsSync(path)) return { exists: false, config: undefined };
  try {
    return { exists: true, config: (JSON.parse(readFileSync(path, "utf8")) as { config?: unknown }).config };
  } catch (err) {
    throw new HierdocError("E_INDEX_CORRUPT", `${path}: not valid JSON (${(err as Error).message})`, { details: { file: path } });
  }
}

function resolveConfig(loc: IndexLocation, indexDir: string, env: NodeJS.ProcessEnv): ToolConfig {
  if (loc.config) {
    let text: string;
    try {
      text = readFileSync(loc.config, "utf8");
    } catch (err) {
      throw new HierdocError("E_INPUT_NOT_FOUND", `${loc.config}: cannot read the config file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, {
        details: { file: loc.config },
      });
    }
    return loadToolConfig(text, { file: loc.config, tool: loc.toolName, env: (name) => env[name] });
  }
  const { config } = readManifestConfig(indexDir);
  if (config) {
    const parsed = ToolConfigSchema.safeParse(config);
    if (parsed.success) return parsed.data;
  }
  return ToolConfigSchema.parse({ name: "default", type: "hierarchical_document", source: "." });
}

function createStore(config: ToolConfig, indexDir: string): VectorStoreAdapter {
  const vs = config.vector_store;
  if (vs.provider === "in-memory" || vs.provider === "memory") return new MemoryStore({ dir: vs.path ? resolve(vs.path) : join(indexDir, "store") });
  throw new HierdocError("E_CONFIG", `vector_store.provider "${vs.provider}" is not available in this server build (available: in-memory)`, {
    details: { path: "vector_store.provider" },
  });
}

/**
 * Opens the tool over an index folder the way the CLI does (config from `--config`, else the index manifest).
 * @throws HierdocError E_INDEX_MISSING when `mustExist` and the folder has no index; E_CONFIG / store errors.
 */
export async function openIndexTool(
  loc: IndexLocation,
  { mustExist, env = process.env, onWarning }: { mustExist: boolean; env?: NodeJS.ProcessEnv; onWarning?: (m: string) => void },
): Promise<HierarchicalDocumentTool> {
  const indexDir = resolve(loc.index ?? ".hierdoc");
  if (mustExist && !readManifestConfig(indexDir).exists) {
    throw new HierdocError("E_INDEX_MISSING", `no index in ${indexDir}: run \`hierdoc ingest PATH\` first (or pass --index DIR)`, { details: { file: indexDir } });
  }
  const config = resolveConfig(loc, indexDir, env);
  const embedder = await createEmbedder(config.embedding, { cacheDir: cacheDir(env) });
  const store = createStore(config, indexDir);
  return HierarchicalDocumentTool.open({ config, indexDir, store, embedder, onWarning });
}
