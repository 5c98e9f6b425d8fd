import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The GDPR fixture, read in place (`../shared/corpora/gdpr/gdpr_2016_679.md`; same depth from `src/testing` and `dist/testing`). */
export const GDPR_MARKDOWN = resolve(here, "../../../../../shared/corpora/gdpr/gdpr_2016_679.md");
/** Whether the GDPR fixture is present (the shared corpora are not part of the repo). */
export const hasGdpr = existsSync(GDPR_MARKDOWN);
/** Appended to a suite name that is skipped when the fixture is missing. */
export const gdprSkipNote = hasGdpr ? "" : " (skipped: ../shared/corpora not present)";

/** The part of an opened index `gdprIndex` uses: ingest the fixture, then close. */
export interface IngestibleIndex {
  ingest(paths: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Opens an index folder (the runtime's `openIndex`, passed in: core cannot depend on the runtime). */
export type IndexOpener<T> = (
  target: { index: string; config?: string; tool?: string },
  options: { mustExist: boolean; env: (name: string) => string | undefined },
) => Promise<T>;

/** A GDPR index folder built by `gdprIndex`. */
export interface GdprIndex<T> {
  /** The index folder. */
  dir: string;
  /** Opens the built index (must exist); the caller closes what it opens. */
  open: () => Promise<T>;
  /** Removes the index folder and its config. */
  cleanup: () => void;
}

const env = (name: string) => process.env[name];

/**
 * Ingests the GDPR fixture into a fresh temporary index folder with the hash embedder (offline and
 * fast; the manifest records it), using `openIndex` (pass the runtime's). Use in framework-adapter
 * tests that need a real index; guard the suite with `hasGdpr`.
 * @throws whatever `openIndex` or the ingest throws (the temporary folder is then left for the OS).
 */
export async function gdprIndex<T extends IngestibleIndex>(openIndex: IndexOpener<T>): Promise<GdprIndex<T>> {
  const root = mkdtempSync(join(tmpdir(), "hierdoc-gdpr-"));
  const dir = join(root, "index");
  const config = join(root, "agent.yaml");
  writeFileSync(config, `tools:\n  - name: gdpr\n    type: hierarchical_document\n    source: ${GDPR_MARKDOWN}\n    embedding: { provider: hash, dimensions: 256 }\n`);
  const tool = await openIndex({ index: dir, config, tool: "gdpr" }, { mustExist: false, env });
  try {
    await tool.ingest([GDPR_MARKDOWN]);
  } finally {
    await tool.close();
  }
  return { dir, open: () => openIndex({ index: dir }, { mustExist: true, env }), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
