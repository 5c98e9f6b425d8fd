// CPU time of the markdown block scanners on one file: node packages/chunker/bench/scan-cpu.mjs FILE.md
import { readFileSync } from "node:fs";
import { lineTable } from "../dist/lines.js";
import { scanMarkdownRemark } from "../dist/markdown.js";
import { scanMarkdownFast } from "../dist/markdown-fast.js";
const text = readFileSync(process.argv[2], "utf8");
const lines = lineTable(text);
const cpu = (f) => {
  let best = Infinity;
  for (let k = 0; k < 5; k++) {
    const c0 = process.cpuUsage();
    f();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  return best.toFixed(1);
};
console.log(`${lines.starts.length} lines; fast: ${scanMarkdownFast(text, lines) ? "handles it" : "falls back"} ${cpu(() => scanMarkdownFast(text, lines))} ms; remark skeleton ${cpu(() => scanMarkdownRemark(text, lines))} ms`);
