import type { ToolConfig } from "@hierdoc/core";
import { indexDirOf, openIndex, resolveConfig as resolveFromLocation, type IndexLocation } from "@hierdoc/runtime";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";

export { indexDirOf };

/** Options every index command accepts (`--index`, `--config`, `--tool`). */
export type IndexOptions = IndexLocation;

const env = (name: string): string | undefined => process.env[name];

/** The tool config for the command's options (config file, index manifest, or defaults over `sources`). */
export function resolveConfig(opts: IndexOptions, sources: string[] = []): ToolConfig {
  return resolveFromLocation(opts, env, sources);
}

/** Opens the tool over the index folder the options name, reading environment variables for secrets. */
export function openTool(
  opts: IndexOptions,
  options: { mustExist: boolean; sources?: string[]; onWarning?: (m: string) => void; onProgress?: (m: string) => void },
): Promise<HierarchicalDocumentTool> {
  return openIndex(opts, { ...options, env });
}
