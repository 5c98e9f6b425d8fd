import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The shared corpora folder, read in place. */
export const corpora = fileURLToPath(new URL("../../../../shared/corpora", import.meta.url));
/** True when the shared corpora are present. */
export const haveCorpora = existsSync(corpora);

/** Whitespace and dash normalisation used for every heading comparison. */
export function norm(s: string): string {
  return s
    .replace(/[\u2010-\u2015\u2212-]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

/** One markdown heading with its parent chain. */
export interface MdHeading {
  level: number;
  text: string;
  parents: string[];
}

/** ATX headings of a markdown text (outside fences), each with the texts of its enclosing headings. */
export function markdownHeadings(md: string): MdHeading[] {
  const out: MdHeading[] = [];
  const stack: { level: number; text: string }[] = [];
  let fence: string | null = null;
  for (const line of md.split("\n")) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      fence = fence === null ? f[1][0] : f[1][0] === fence ? null : fence;
      continue;
    }
    if (fence !== null) continue;
    const m = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (!m) continue;
    const level = m[1].length;
    const text = m[2].replace(/\\(.)/g, "$1");
    while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
    out.push({ level, text, parents: stack.map((s) => s.text) });
    stack.push({ level, text });
  }
  return out;
}

/** Rows of a JSON-lines file. */
export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** Share of gold rows whose (heading, parents) pair is found among the candidates, plus the misses. */
export function matchRate(
  gold: { label: string; parents: string[] }[],
  found: { label: string; parents: string[] }[],
): { matched: number; total: number; rate: number; misses: string[] } {
  const key = (label: string, parents: string[]) => [...parents, label].map(norm).join(" › ");
  const have = new Set(found.map((f) => key(f.label, f.parents)));
  const misses = gold.filter((g) => !have.has(key(g.label, g.parents))).map((g) => key(g.label, g.parents));
  return { matched: gold.length - misses.length, total: gold.length, rate: (gold.length - misses.length) / gold.length, misses };
}
