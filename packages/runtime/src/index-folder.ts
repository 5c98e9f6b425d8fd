import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { HierdocError } from "@hierdoc/core";
import { MANIFEST, type IndexManifest } from "@hierdoc/tool";

export { MANIFEST, type IndexManifest };

/** Where an index is and how it is configured (the CLI's `--index`, `--config`, `--tool`). */
export interface IndexLocation {
  /** Index folder; default `./.hierdoc`. */
  index?: string;
  /** agent.yaml with the tool entry; default: the config recorded in the index manifest. */
  config?: string;
  /** Tool name inside `config`. */
  tool?: string;
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

