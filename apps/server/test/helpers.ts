import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolConfigSchema } from "@hierdoc/core";
import { HashEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";

const here = dirname(fileURLToPath(import.meta.url));

/** The repository's sample corpus (read in place for the served index; copied for ingest tests). */
export const SAMPLE_CORPUS = resolve(here, "../../../examples/sample-corpus");
/** The server package folder. */
export const PACKAGE_DIR = resolve(here, "..");

/** The config the tests use (hash embedder: deterministic, offline). */
export const TEST_CONFIG = { name: "t", type: "hierarchical_document", source: ".", embedding: { provider: "hash", dimensions: 256 } } as const;

/** A scratch folder: `docs` (a copy of the sample corpus, the ingest root), `index`, `outside` (not a root). */
export function workspace(): { dir: string; docs: string; index: string; outside: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "hierdoc-server-"));
  const docs = join(dir, "docs");
  const outside = join(dir, "outside");
  cpSync(SAMPLE_CORPUS, docs, { recursive: true });
  cpSync(join(SAMPLE_CORPUS, "community-garden-rules.txt"), join(outside, "secret-rules.txt"), { recursive: true });
  return { dir, docs, index: join(dir, "index"), outside, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens a tool over a memory store in `index` with the hash embedder (256 dimensions). */
export async function openTool(index: string): Promise<HierarchicalDocumentTool> {
  return HierarchicalDocumentTool.open({
    config: ToolConfigSchema.parse(TEST_CONFIG),
    indexDir: index,
    store: new MemoryStore({ dir: join(index, "store") }),
    embedder: new HashEmbedder({ dimensions: 256 }),
  });
}

/** Opens a tool over `index`, ingests the sample corpus in place, and writes the CLI-style manifest. */
export async function sampleTool(index: string): Promise<HierarchicalDocumentTool> {
  const tool = await openTool(index);
  await tool.ingest([SAMPLE_CORPUS]);
  writeFileSync(join(index, "hierdoc.json"), JSON.stringify({ version: 1, config: TEST_CONFIG, embedder: { id: tool.embedder.id, dimensions: 256 }, store: tool.store.id }));
  return tool;
}

/** fetch + JSON body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies field by field
export async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const { json, ...rest } = init;
  const res = await fetch(url, {
    ...rest,
    ...(json !== undefined ? { method: rest.method ?? "POST", body: JSON.stringify(json), headers: { "content-type": "application/json", ...(rest.headers as Record<string, string>) } } : {}),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON (metrics) */
  }
  return { status: res.status, body, headers: res.headers };
}

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A gate a test opens by hand. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

/**
 * Wraps a real tool: `before.search` / `before.ingest` run before the real call (to hold a request in flight),
 * `counts` says how many calls reached the tool, and `counts.closed` records `close()`.
 */
export function instrumented(tool: HierarchicalDocumentTool, before: { search?: () => Promise<void>; ingest?: () => Promise<void> } = {}) {
  const counts = { searches: 0, ingests: 0, closed: false };
  const served = {
    counts,
    get chunkCount() {
      return tool.chunkCount;
    },
    store: tool.store,
    search: async (...args: Parameters<HierarchicalDocumentTool["search"]>) => {
      counts.searches++;
      await before.search?.();
      return tool.search(...args);
    },
    ingest: async (...args: Parameters<HierarchicalDocumentTool["ingest"]>) => {
      counts.ingests++;
      await before.ingest?.();
      return tool.ingest(...args);
    },
    section: (id: string) => tool.section(id),
    define: (term: string) => tool.define(term),
    listDefinitions: () => tool.listDefinitions(),
    refs: (id: string) => tool.refs(id),
    stats: () => tool.stats(),
    close: async () => {
      counts.closed = true;
    },
  };
  return served;
}

/** Polls `cond` every 5 ms until it holds (or fails after `ms`). */
export async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await sleep(5);
  }
}

/**
 * Builds the package (tsc) when `dist` is missing or older than `src`, so subprocess tests run current code.
 * `npm test` builds everything first; this covers running Jest on this folder alone.
 */
export function ensureBuilt(): void {
  const src = join(PACKAGE_DIR, "src");
  const dist = join(PACKAGE_DIR, "dist");
  const stale = readdirSync(src).some((f) => {
    if (!f.endsWith(".ts")) return false;
    const out = join(dist, f.replace(/\.ts$/, ".js"));
    return !existsSync(out) || statSync(out).mtimeMs < statSync(join(src, f)).mtimeMs;
  });
  if (!stale) return;
  const res = spawnSync(process.execPath, [resolve(PACKAGE_DIR, "../../node_modules/typescript/bin/tsc"), "-p", join(PACKAGE_DIR, "tsconfig.lib.json")], { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`building @hierdoc/server failed:\n${res.stdout}${res.stderr}`);
}
