import { readFileSync } from "node:fs";
import { HierdocError, ToolConfigSchema, type ToolConfig } from "@hierdoc/core";
import { loadToolConfig } from "@hierdoc/tool";
import { indexDirOf, readManifest, type IndexLocation } from "./index-folder.js";
import { storeConfigProblems } from "./store-registry.js";

/** Reads environment variables; apps pass `(name) => process.env[name]`. */
export type Env = (name: string) => string | undefined;

/**
 * The tool config for a location: `config` + `tool` when given (with `${ENV}` interpolation), else the
 * config recorded in the index manifest, else the defaults with `sources` as the source.
 * The `vector_store` block is checked against its store's own schema (see {@link storeConfigProblems}).
 * @throws HierdocError E_INPUT_NOT_FOUND (config file unreadable), E_CONFIG (every problem with its path and line).
 */
export function resolveConfig(loc: IndexLocation, env: Env, sources: string[] = []): ToolConfig {
  if (loc.config) {
    let text: string;
    try {
      text = readFileSync(loc.config, "utf8");
    } catch (err) {
      throw new HierdocError("E_INPUT_NOT_FOUND", `${loc.config}: cannot read the config file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, {
        details: { file: loc.config },
      });
    }
    return loadToolConfig(text, { file: loc.config, tool: loc.tool, env, check: storeConfigProblems });
  }
  const manifest = readManifest(indexDirOf(loc));
  if (manifest?.config) {
    const parsed = ToolConfigSchema.safeParse(manifest.config);
    if (parsed.success) return parsed.data;
  }
  return ToolConfigSchema.parse({ name: "default", type: "hierarchical_document", source: sources.length > 0 ? sources : "." });
}
