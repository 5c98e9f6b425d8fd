// Opening a tool over an index folder, exactly as the CLI does (shared in @hierdoc/runtime).
import { openIndex } from "@hierdoc/runtime";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";

/** Where the index is and how it was configured (the CLI's `--index`, `--config`, `--tool`). */
export interface IndexLocation {
  /** Index folder; default `./.hierdoc`. */
  index?: string;
  /** agent.yaml with the tool entry; default: the config recorded in the index manifest. */
  config?: string;
  /** Tool name inside `config`. */
  toolName?: string;
}

/**
 * Opens the tool over an index folder the way the CLI does (config from `--config`, else the index manifest);
 * `reuseEmbedderOf` (a reload) shares an open tool's embedder when the config names the same one.
 * @throws HierdocError E_INDEX_MISSING when `mustExist` and the folder has no index; E_CONFIG / store errors.
 */
export async function openIndexTool(
  loc: IndexLocation,
  {
    mustExist,
    env = process.env,
    onWarning,
    reuseEmbedderOf,
  }: { mustExist: boolean; env?: NodeJS.ProcessEnv; onWarning?: (m: string) => void; reuseEmbedderOf?: Pick<HierarchicalDocumentTool, "config" | "embedder"> },
): Promise<HierarchicalDocumentTool> {
  return openIndex({ index: loc.index, config: loc.config, tool: loc.toolName }, { mustExist, env: (name) => env[name], onWarning, reuseEmbedderOf });
}
