import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolConfig } from "@hierdoc/core";
import { redactConfig } from "./config-loader.js";

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

/**
 * Writes `<indexDir>/hierdoc.json` atomically (temp file + rename); secrets are redacted. With `keepIfSame`
 * (an ingest that changed nothing), a manifest already recording the same config, embedder and store is left
 * as it is, `updatedAt` included: a server watching the folder then has nothing to reload.
 */
export async function writeIndexManifest(
  indexDir: string,
  facts: { config: ToolConfig; embedder: { id: string; dimensions: number }; store: string },
  options: { keepIfSame?: boolean } = {},
): Promise<void> {
  await mkdir(indexDir, { recursive: true });
  const path = join(indexDir, MANIFEST);
  const manifest: IndexManifest = {
    version: 1,
    config: redactConfig(facts.config),
    embedder: { id: facts.embedder.id, dimensions: facts.embedder.dimensions },
    store: facts.store,
    updatedAt: new Date().toISOString(),
  };
  if (options.keepIfSame && sameFacts(await readManifest(path), manifest)) return;
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(manifest, null, 2) + "\n");
  await rename(tmp, path);
}

/** The manifest at `path`, or null when it is missing or unreadable (it is then written anew). */
async function readManifest(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch {
    return null;
  }
}

/** Whether a stored manifest records what `next` does, apart from `updatedAt`. */
function sameFacts(stored: unknown, next: IndexManifest): boolean {
  if (stored === null || typeof stored !== "object") return false;
  const { updatedAt: _stored, ...a } = stored as IndexManifest;
  const { updatedAt: _next, ...b } = next;
  return JSON.stringify(a) === JSON.stringify(b);
}
