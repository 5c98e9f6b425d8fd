import { rm } from "node:fs/promises";
import { join } from "node:path";
import { HierdocError, readTextIfExists, type DefinitionEntry } from "@hierdoc/core";
import { writeFileAtomic } from "@hierdoc/keyword-search";
import type { CatalogEntry } from "./catalog.js";

/** File name of the changes saved on top of `derived.bin` inside the index folder. */
export const DERIVED_DELTA_FILE_NAME = "derived-delta.json";

/**
 * What changed in the derived state since `derived.bin` (`base`) was written, so an ingest of a few files into
 * a large index saves only them: the base positions of the chunks removed, the catalog entries added (in
 * store order after the base), and, for every source with a removed or added chunk (`changedSources`), its
 * definitions now; the code titles of every source. `stamp` and `fingerprint` are the store's and catalog's
 * after the changes. The exact index and section resolver are rebuilt from it at open (for the changed
 * sources only).
 */
export interface DerivedDelta {
  format: "hierdoc-derived-delta";
  version: 1;
  base: { stamp: string; fingerprint: string };
  stamp: string;
  fingerprint: string;
  removed: number[];
  added: CatalogEntry[];
  changedSources: string[];
  definitions: Array<[sourcePath: string, entries: DefinitionEntry[]]>;
  codeTitles: Array<[sourcePath: string, name: string]>;
}

/**
 * Writes `dir/derived-delta.json` atomically.
 * @throws HierdocError E_INTERNAL when it cannot be written.
 */
export async function writeDerivedDelta(dir: string, delta: Omit<DerivedDelta, "format" | "version">): Promise<void> {
  const body: DerivedDelta = { format: "hierdoc-derived-delta", version: 1, ...delta };
  await writeFileAtomic(dir, DERIVED_DELTA_FILE_NAME, [Buffer.from(JSON.stringify(body), "utf8")]);
}

/**
 * Reads `dir/derived-delta.json`; null when there is none.
 * @throws HierdocError E_INDEX_CORRUPT when it is not a derived-state delta of this version.
 */
export async function readDerivedDelta(dir: string): Promise<DerivedDelta | null> {
  const file = join(dir, DERIVED_DELTA_FILE_NAME);
  const text = await readTextIfExists(file);
  if (text === null) return null;
  let delta: DerivedDelta;
  try {
    delta = JSON.parse(text) as DerivedDelta;
  } catch (err) {
    throw new HierdocError("E_INDEX_CORRUPT", `derived-state delta ${file} is unusable: ${(err as Error).message}`, { details: { file } });
  }
  if (delta?.format !== "hierdoc-derived-delta" || delta.version !== 1 || !Array.isArray(delta.removed) || !Array.isArray(delta.added) || !Array.isArray(delta.changedSources)) {
    throw new HierdocError("E_INDEX_CORRUPT", `derived-state delta ${file} is unusable: not a version 1 delta`, { details: { file } });
  }
  return delta;
}

/** Deletes `dir/derived-delta.json` (before the store changes, or when a full `derived.bin` replaces it). */
export async function removeDerivedDelta(dir: string): Promise<void> {
  await rm(join(dir, DERIVED_DELTA_FILE_NAME), { force: true });
}
