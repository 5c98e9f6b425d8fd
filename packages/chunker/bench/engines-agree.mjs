// Checks that markdownEngine "auto" (linear scan + remark where needed) and "remark" give the same
// sections and chunks on every markdown file of the shared corpora: node packages/chunker/bench/engines-agree.mjs
import { readFileSync, readdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "../dist/index.js";
const corpora = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../shared/corpora");
let bad = 0;
for (const dir of ["gdpr", "cfr27/md", "uscode/md", "rfc", "rfc/derived"]) {
  for (const f of readdirSync(resolve(corpora, dir)).filter((x) => x.endsWith(".md"))) {
    const text = readFileSync(resolve(corpora, dir, f), "utf8");
    const doc = { sourcePath: f, fileType: "markdown", format: "markdown", text };
    const a = parseDocument(doc);
    const b = parseDocument(doc, { markdownEngine: "remark" });
    const sa = JSON.stringify(a.sections);
    const sb = JSON.stringify(b.sections);
    const same = sa === sb && JSON.stringify(a.chunks) === JSON.stringify(b.chunks);
    if (!same) {
      bad++;
      const i = a.sections.findIndex((s, k) => JSON.stringify(s) !== JSON.stringify(b.sections[k]));
      console.log(`${f}: differ (${a.sections.length} vs ${b.sections.length} sections; first at ${i}: ${JSON.stringify(a.sections[i]?.title)} vs ${JSON.stringify(b.sections[i]?.title)})`);
    }
  }
}
console.log(bad === 0 ? "engines agree on every markdown file" : `${bad} files differ`);
