import type { ToolConfig } from "@hierdoc/core";
import { indexDirOf, openIndex, resolveConfig as resolveFromLocation, type IndexLocation } from "@hierdoc/runtime";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { err } from "./io.js";

export { indexDirOf };

/** Options every index command accepts (`--index`, `--config`, `--tool`, `--verbose`). */
export type IndexOptions = IndexLocation & { verbose?: boolean };

const env = (name: string): string | undefined => process.env[name];

/** The tool config for the command's options (config file, index manifest, or defaults over `sources`). */
export function resolveConfig(opts: IndexOptions, sources: string[] = []): ToolConfig {
  return resolveFromLocation(opts, env, sources);
}

/**
 * Opens the tool over the index folder the options name, reading environment variables for secrets. With
 * `--verbose`, the tool's debug lines (why `derived.bin` / `bm25.bin` was rebuilt, how the store got its graph,
 * the open time) go to stderr as `debug: …`.
 */
export function openTool(
  opts: IndexOptions,
  options: { mustExist: boolean; sources?: string[]; onWarning?: (m: string) => void; onProgress?: (m: string) => void },
): Promise<HierarchicalDocumentTool> {
  return openIndex(opts, { ...options, env, onDebug: opts.verbose ? (m) => err(`debug: ${m}`) : undefined });
}
