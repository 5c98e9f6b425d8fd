// Chunk statistics per corpus file: node packages/chunker/bench/stats.mjs FILE [markdown|text]
import { readFileSync } from "node:fs";
import { parseDocument } from "../dist/index.js";
const [path, format = path.endsWith(".md") ? "markdown" : "text"] = process.argv.slice(2);
const text = readFileSync(path, "utf8");
const { sections, chunks } = parseDocument({ sourcePath: path, fileType: format, format, text });
const t = chunks.map((c) => c.tokens).sort((a, b) => a - b);
const q = (p) => t[Math.min(t.length - 1, Math.floor(p * t.length))];
const types = {};
for (const c of chunks) types[c.chunkType] = (types[c.chunkType] ?? 0) + 1;
const covered = chunks.reduce((n, c) => n + c.content.length, 0);
console.log(`${sections.length} sections, ${chunks.length} chunks; tokens p10 ${q(0.1)} p50 ${q(0.5)} p90 ${q(0.9)} max ${t[t.length - 1]}; types ${JSON.stringify(types)}; chunk chars / text chars ${(covered / text.length).toFixed(3)}`);
