// Per-file parse + chunk CPU time (best of 3), slowest first: node packages/chunker/bench/per-file.mjs
import { readFileSync, readdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "../dist/index.js";
const corpora = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora");
const rows = [];
for (const [dir, ext, format] of [["gdpr", ".md", "markdown"], ["cfr27/md", ".md", "markdown"], ["uscode/md", ".md", "markdown"], ["rfc", ".md", "markdown"], ["rfc/derived", ".md", "markdown"], ["rfc", ".txt", "text"], ["obliqa/StandardizedRegulatoryDocumentsTXT", ".txt", "text"]]) {
  for (const f of readdirSync(resolve(corpora, dir)).filter((x) => x.endsWith(ext))) {
    const text = readFileSync(resolve(corpora, dir, f), "utf8");
    const doc = { sourcePath: f, fileType: format, format, text };
    parseDocument(doc);
    let ms = Infinity;
    for (let k = 0; k < 3; k++) {
      const c0 = process.cpuUsage();
      parseDocument(doc);
      const c = process.cpuUsage(c0);
      ms = Math.min(ms, (c.user + c.system) / 1000);
    }
    rows.push([ms, f, text.length]);
  }
}
rows.sort((a, b) => b[0] - a[0]);
for (const [ms, f, n] of rows.slice(0, Number(process.argv[2] ?? 12))) console.log(`${ms.toFixed(0).padStart(6)} ms ${(n / 1e3 / ms).toFixed(2).padStart(6)} MB/s ${f}`);
