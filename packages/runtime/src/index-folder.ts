import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { HierdocError } from "@hierdoc/core";
import { redactConfig, type HierarchicalDocumentTool } from "@hierdoc/tool";

/** Where an index is and how it is configured (the CLI's `--index`, `--config`, `--tool`). */
export interface IndexLocation {
  /** Index folder; default `./.hierdoc`. */
  index?: string;
  /** agent.yaml with the tool entry; default: the config recorded in the index manifest. */
  config?: string;
  /** Tool name inside `config`. */
  tool?: string;
}

/** Name of the file in the index folder that records how the index was built. */
export const MANIFEST = "hierdoc.json";

/** What the manifest records. */
export interface IndexManifest {
  version: 1;
  /** The tool config, secrets redacted. */
  config: unknown;
  embedder: { id: string; dimensions: number };
  store: string;
  updatedAt: string;
}

/** The index folder of a location: `index`, else `./.hierdoc`, made absolute. */
export function indexDirOf(loc: IndexLocation): string {
  return resolve(loc.index ?? ".hierdoc");
}

/**
 * Reads the index manifest, or null when the folder holds no index.
 * @throws HierdocError E_INDEX_CORRUPT when the manifest is not valid JSON.
 */
export function readManifest(indexDir: string): IndexManifest | null {
  const path = join(indexDir, MANIFEST);
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as IndexManifest;
  } catch (err) {
    throw new HierdocError("E_INDEX_CORRUPT", `${path}: not valid JSON (${(err as Error).message})`, { details: { file: path } });
  }
}

/** Writes the manifest atomically (temp file + rename); secrets are redacted. */
export function writeManifest(indexDir: string, tool: HierarchicalDocumentTool): void {
  mkdirSync(indexDir, { recursive: true });
  const path = join(indexDir, MANIFEST);
  const manifest: IndexManifest = {
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
