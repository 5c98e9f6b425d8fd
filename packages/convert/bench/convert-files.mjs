// Times convertFile on each named file with the built package (one process, files in order) and prints one
// JSON line per file: size, milliseconds, converted characters, first-level sections, the last line of the
// converted text (where a row limit leaves its note) and the process's peak RSS so far.
// Usage (after building @hierdoc/convert): node packages/convert/bench/convert-files.mjs FILE...
import { readFileSync } from "node:fs";
import { convertFile } from "../dist/index.js";

for (const file of process.argv.slice(2)) {
  const bytes = readFileSync(file);
  const t0 = performance.now();
  const doc = await convertFile(file, bytes);
  console.log(
    JSON.stringify({
      file,
      bytes: bytes.length,
      ms: Math.round(performance.now() - t0),
      chars: doc.text.length,
      sections: (doc.text.match(/^# /gm) ?? []).length,
      last: doc.text.trim().split("\n").pop()?.slice(0, 120),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}
