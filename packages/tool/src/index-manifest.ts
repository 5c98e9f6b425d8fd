import { mkdir, rename, writeFile } from "node:fs/promises";
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

/** Writes `<indexDir>/hierdoc.json` atomically (temp file + rename); secrets are redacted. */
export async function writeIndexManifest(
  indexDir: string,
  facts: { config: ToolConfig; embedder: { id: string; dimensions: number }; store: string },
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
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(manifest, null, 2) + "\n");
  await rename(tmp, path);
}
