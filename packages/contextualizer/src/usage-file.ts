import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { HierdocError, readTextIfExists } from "@hierdoc/core";
import { mergeContextUsage, type ContextUsage } from "./usage-accounting.js";

/** File name of the lifetime usage totals inside the context cache folder. */
export const USAGE_FILE = "usage.json";

/**
 * Reads the lifetime context usage stored in `<dir>/usage.json` (for `hierdoc stats`); undefined when absent.
 * @throws HierdocError E_INDEX_CORRUPT when the file is not valid JSON
 */
export async function readContextUsage(dir: string): Promise<ContextUsage | undefined> {
  const file = join(dir, USAGE_FILE);
  const text = await readTextIfExists(file);
  if (text === null) return undefined;
  try {
    const parsed = JSON.parse(text) as ContextUsage;
    if (!Array.isArray(parsed.models)) throw new Error("no models array");
    return parsed;
  } catch (err) {
    throw new HierdocError("E_INDEX_CORRUPT", `${file} is not a usage report`, { cause: err, details: { file } });
  }
}

/**
 * Adds one ingest's usage to `<dir>/usage.json` (written atomically) and returns the new lifetime totals.
 * Call it once per ingest with the generator's `usage()`.
 * @throws HierdocError E_INDEX_CORRUPT (unreadable totals) or the file system's error when writing fails
 */
export async function addContextUsage(dir: string, usage: ContextUsage): Promise<ContextUsage> {
  const total = mergeContextUsage(await readContextUsage(dir), usage);
  await mkdir(dir, { recursive: true });
  const file = join(dir, USAGE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(total, null, 2)}\n`, "utf8");
  await rename(tmp, file);
  return total;
}
