// Source-code outline throughput on real code: converts every file with the given extensions under DIR
// (three folder levels, node_modules and dot-folders skipped) with the built package, in one process.
// Usage (after building @hierdoc/convert):
//   node packages/convert/bench/code-outline.mjs /usr/lib/python3.11 .py
//   node packages/convert/bench/code-outline.mjs /usr/include .h
// Prints one JSON line: files, MB, seconds, MB/s, definition sections ("##".."######" headings that are not
// "(lines …)" gap sections), gap sections, files without any definition section, failures, peak RSS.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { convertFile } from "../dist/index.js";

const [dir, ...exts] = process.argv.slice(2);
if (!dir || exts.length === 0) {
  console.error("usage: node code-outline.mjs DIR .EXT [.EXT ...]");
  process.exit(2);
}
const files = [];
const walk = (d, depth) => {
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) {
      if (depth < 3 && name !== "node_modules" && !name.startsWith(".")) walk(p, depth + 1);
    } else if (exts.some((e) => name.endsWith(e))) files.push(p);
  }
};
walk(dir, 0);
let bytes = 0;
let sections = 0;
let definitions = 0;
let failed = 0;
let withoutDefinitions = 0;
const t0 = performance.now();
for (const file of files) {
  const data = readFileSync(file);
  bytes += data.length;
  try {
    const doc = await convertFile(file, data);
    const headings = doc.text.split("\n").filter((l) => /^#{2,6} /.test(l));
    const defs = headings.filter((l) => !/ \(lines? \d/.test(l)).length;
    sections += headings.length;
    definitions += defs;
    if (defs === 0) withoutDefinitions++;
  } catch (err) {
    failed++;
    if (process.env.SHOW_FAILURES) console.error(err.code, err.message.slice(0, 160));
  }
}
const seconds = (performance.now() - t0) / 1000;
console.log(
  JSON.stringify({
    dir,
    exts,
    files: files.length,
    MB: +(bytes / 1e6).toFixed(2),
    seconds: +seconds.toFixed(2),
    MBps: +(bytes / 1e6 / seconds).toFixed(2),
    definitionSections: definitions,
    gapSections: sections - definitions,
    filesWithoutDefinitions: withoutDefinitions,
    failed,
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
