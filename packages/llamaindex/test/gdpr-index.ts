import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openIndex } from "@hierdoc/runtime";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";

const here = dirname(fileURLToPath(import.meta.url));
/** The GDPR fixture (read in place). */
export const GDPR = resolve(here, "../../../../shared/corpora/gdpr/gdpr_2016_679.md");
export const hasGdpr = existsSync(GDPR);
export const gdprSkipNote = hasGdpr ? "" : " (skipped: ../shared/corpora not present)";
const env = (name: string) => process.env[name];

/** Ingests the GDPR into a fresh index folder (hash embedder: offline and fast; the manifest records it). */
export async function gdprIndex(): Promise<{ dir: string; open: () => Promise<HierarchicalDocumentTool>; cleanup: () => void }> {
  const root = mkdtempSync(join(tmpdir(), "hierdoc-gdpr-"));
  const dir = join(root, "index");
  const config = join(root, "agent.yaml");
  writeFileSync(config, `tools:\n  - name: gdpr\n    type: hierarchical_document\n    source: ${GDPR}\n    embedding: { provider: hash, dimensions: 256 }\n`);
  const tool = await openIndex({ index: dir, config, tool: "gdpr" }, { mustExist: false, env });
  try {
    await tool.ingest([GDPR]);
  } finally {
    await tool.close();
  }
  return { dir, open: () => openIndex({ index: dir }, { mustExist: true, env }), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
