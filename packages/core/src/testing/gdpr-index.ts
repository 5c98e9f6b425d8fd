import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HierdocError } from "../errors.js";
import { jestApi } from "./jest-api.js";

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

/** The GDPR index of a suite ({@link useGdprIndex}); read its fields inside tests, after `beforeAll`. */
export interface GdprSuiteIndex<T> {
  /** The index folder. */
  readonly dir: string;
  /** The index opened once for the suite (only with `open: true`). */
  readonly tool: T;
}

/**
 * Registers, in the current Jest `describe`, a `beforeAll` that builds the GDPR index with {@link gdprIndex}
 * (and, with `open: true`, opens it once) and an `afterAll` that closes what it opened and removes the folder.
 * @throws HierdocError E_INTERNAL outside a Jest test file, or when `dir` / `tool` is read before `beforeAll`
 *   ran (or `tool` without `open: true`).
 */
export function useGdprIndex<T extends IngestibleIndex>(openIndex: IndexOpener<T>, options: { open?: boolean } = {}): GdprSuiteIndex<T> {
  const { beforeAll, afterAll } = jestApi();
  let fixture: GdprIndex<T> | undefined;
  let tool: T | undefined;
  beforeAll(async () => {
    fixture = await gdprIndex(openIndex);
    if (options.open) tool = await fixture.open();
  }, 120_000);
  afterAll(async () => {
    await tool?.close();
    fixture?.cleanup();
  });
  const missing = (what: string) => new HierdocError("E_INTERNAL", `the GDPR index ${what} is read before its beforeAll ran${what === "tool" ? " (or without open: true)" : ""}`);
  return {
    get dir() {
      if (!fixture) throw missing("dir");
      return fixture.dir;
    },
    get tool() {
      if (!tool) throw missing("tool");
      return tool;
    },
  };
}
