#!/usr/bin/env node
// Measures the GloVe embedder: first conversion (if no cache), cold cache load, and embedding throughput.
// Usage (after `npx tsc -p packages/embeddings/tsconfig.lib.json`):
//   node packages/embeddings/scripts/measure.mjs [--cache-dir DIR] [--rebuild]
// Cold load is measured in a fresh child process (nothing warmed in this one), median of 3 runs.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const cacheDir = args.includes("--cache-dir") ? args[args.indexOf("--cache-dir") + 1] : join(tmpdir(), "hierdoc-embeddings-cache");
const dist = new URL("../dist/index.js", import.meta.url).href;

if (process.env.HIERDOC_MEASURE_CHILD === "load") {
  const { GloveEmbedder } = await import(dist);
  const t0 = performance.now();
  const embedder = await GloveEmbedder.load({ cacheDir });
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ ms, size: embedder.size, rss: process.memoryUsage().rss }));
  process.exit(0);
}

const { GloveEmbedder, gloveCachePath } = await import(dist);
if (args.includes("--rebuild")) rmSync(gloveCachePath({ cacheDir }), { force: true });

let t0 = performance.now();
const embedder = await GloveEmbedder.load({ cacheDir, onProgress: (m) => console.error(`  ${m}`) });
console.log(`load in this process (conversion if no cache): ${(performance.now() - t0).toFixed(0)} ms`);

const runs = [];
for (let i = 0; i < 3; i++) {
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--cache-dir", cacheDir], {
    env: { ...process.env, HIERDOC_MEASURE_CHILD: "load" },
  });
  runs.push(JSON.parse(out.toString()));
}
runs.sort((a, b) => a.ms - b.ms);
const median = runs[1];
console.log(`cold cache load (fresh process, median of 3): ${median.ms.toFixed(0)} ms; ` +
  `rss after load ${(median.rss / 1e6).toFixed(0)} MB; vocabulary ${median.size}`);

// ~800-token texts: 690-word windows (≈ 800 gpt-tokenizer tokens) of the GDPR when ../shared/corpora is present, else synthetic legal prose.
const gdpr = new URL("../../../../shared/corpora/gdpr/gdpr_2016_679.md", import.meta.url);
let source;
let texts;
if (existsSync(gdpr)) {
  source = "GDPR windows";
  const words = readFileSync(gdpr, "utf8").split(/\s+/);
  const windows = [];
  for (let i = 0; i + 690 <= words.length; i += 690) windows.push(words.slice(i, i + 690).join(" "));
  texts = Array.from({ length: 2000 }, (_, i) => windows[i % windows.length]);
} else {
  source = "synthetic";
  const vocabulary = ("the controller shall erase personal data without undue delay where the data subject withdraws consent " +
    "pursuant to article processing lawful basis member state law supervisory authority obligation right request " +
    "information recipient third country transfer safeguards court tribunal section paragraph regulation directive").split(" ");
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  texts = Array.from({ length: 2000 }, () =>
    Array.from({ length: 600 }, () => vocabulary[Math.floor(rand() * vocabulary.length)]).join(" ") + ".");
}
await embedder.embedDocuments(texts.slice(0, 50));
t0 = performance.now();
await embedder.embedDocuments(texts);
const secs = (performance.now() - t0) / 1000;
console.log(`throughput: ${(texts.length / secs).toFixed(0)} chunks/s (${texts.length} ${source} texts ≈ 800 tokens, ${secs.toFixed(2)} s)`);
