// Phase timings for one file: node packages/chunker/bench/profile-one.mjs PATH markdown|text
import { readFileSync } from "node:fs";
import { lineTable } from "../dist/lines.js";
import { markdownStructure } from "../dist/markdown.js";
import { plainTextStructure } from "../dist/plain-text.js";
import { buildSections } from "../dist/structure.js";
import { chunkSections } from "../dist/chunk.js";
const [path, format] = process.argv.slice(2);
const text = readFileSync(path, "utf8");
for (let k = 0; k < 3; k++) {
  const t0 = performance.now();
  const lines = lineTable(text);
  const s = format === "markdown" ? markdownStructure(text, lines) : plainTextStructure(text, lines, true);
  const t1 = performance.now();
  const nodes = buildSections(text, s, "usc");
  const t2 = performance.now();
  const chunks = chunkSections(text, path, nodes, s.removed, s.atomic, {});
  const t3 = performance.now();
  console.log(`scan ${(t1 - t0).toFixed(0)} build ${(t2 - t1).toFixed(0)} chunk ${(t3 - t2).toFixed(0)} ms; ${nodes.length} sections, ${chunks.length} chunks`);
}
