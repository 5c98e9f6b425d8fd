import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const corpus = resolve(dirname(fileURLToPath(import.meta.url)), "../../../examples/sample-corpus");

/** Every paragraph of the repository's sample corpus as a document (`file#n`), files in name order (the BM25 fixtures were written from these). */
export function sampleParagraphs(): Array<{ id: string; text: string; sourcePath: string }> {
  const docs: Array<{ id: string; text: string; sourcePath: string }> = [];
  for (const f of readdirSync(corpus).sort()) {
    const paras = readFileSync(join(corpus, f), "utf8").split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
    paras.forEach((text, i) => docs.push({ id: `${f}#${i}`, text, sourcePath: f }));
  }
  return docs;
}
