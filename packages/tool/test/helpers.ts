import { afterEach } from "@jest/globals";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolConfigSchema, type ToolConfigInput } from "@hierdoc/core";
import { HashEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";

const here = dirname(fileURLToPath(import.meta.url));

/** The repository's sample corpus. */
export const SAMPLE_CORPUS = resolve(here, "../../../examples/sample-corpus");

/** A scratch folder with a copy of the sample corpus and an index folder; `cleanup` removes it. */
export function workspace(): { dir: string; docs: string; index: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "hierdoc-tool-"));
  const docs = join(dir, "docs");
  cpSync(SAMPLE_CORPUS, docs, { recursive: true });
  return { dir, docs, index: join(dir, "index"), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Opens a tool over a memory store persisted in `index`, with the deterministic hash embedder. Files are
 * converted in the test's thread (`ingest.workers: 0`) unless `overrides` or the ingest call say otherwise:
 * worker threads run the built packages (dist), which the worker tests exercise on purpose.
 */
export async function openTool(index: string, overrides: Partial<ToolConfigInput> = {}, onWarning?: (m: string) => void): Promise<HierarchicalDocumentTool> {
  const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ".", ingest: { workers: 0 }, ...overrides });
  return HierarchicalDocumentTool.open({
    config,
    indexDir: index,
    store: new MemoryStore({ dir: join(index, "store") }),
    embedder: new HashEmbedder({ dimensions: 256 }),
    onWarning,
  });
}

/**
 * Scratch workspaces and tools for the tests of the calling `describe`: what `workspace()` and `open()` hand
 * out is closed (every tool, also one a test closed already) and removed after each test, pass or fail.
 */
export function perTestScratch(): {
  workspace: () => ReturnType<typeof workspace>;
  open: (...args: Parameters<typeof openTool>) => Promise<HierarchicalDocumentTool>;
} {
  const spaces: Array<ReturnType<typeof workspace>> = [];
  const tools: HierarchicalDocumentTool[] = [];
  afterEach(async () => {
    for (const tool of tools.splice(0)) await tool.close().catch(() => undefined);
    for (const ws of spaces.splice(0)) ws.cleanup();
  });
  return {
    workspace: () => {
      const ws = workspace();
      spaces.push(ws);
      return ws;
    },
    open: async (...args) => {
      const tool = await openTool(...args);
      tools.push(tool);
      return tool;
    },
  };
}
