import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A small seeded PRNG (mulberry32), so generated corpora and kill points are reproducible from a seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCAB = (
  "operator shall notify competent authority within thirty days after becoming aware incident record keep " +
  "register publish annual report data subject request erasure processing lawful consent controller processor " +
  "supervisory measure technical organisational security breach penalty fine appeal tribunal notice licence " +
  "holder inspection premises equipment maintenance schedule emission limit monitoring sample laboratory"
).split(" ");

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(VOCAB[Math.floor(rand() * VOCAB.length)]);
  out[0] = out[0][0].toUpperCase() + out[0].slice(1);
  return out.join(" ") + ".";
}

/**
 * Text of one generated statute-like markdown act: `sections` sections with lettered paragraphs,
 * a definitions section and cross-references, varied by `seed` and `version`.
 */
export function actText(n: number, version: number, sections = 10): string {
  const rand = prng(n * 7919 + version * 104729);
  const lines = [`# Act ${n} of the Generated Code (version ${version})`, "", "## Section 1 — Definitions", ""];
  lines.push(`In this Act, "registry ${n}" means the register kept under Section 2.`, "");
  for (let s = 2; s <= sections; s++) {
    lines.push(`## Section ${s} — ${sentence(rand, 3).slice(0, -1)}`, "");
    const paras = 1 + Math.floor(rand() * 4);
    for (let p = 0; p < paras; p++) {
      const letter = String.fromCharCode(97 + p);
      lines.push(`(${letter}) ${sentence(rand, 12 + Math.floor(rand() * 40))} See Section ${1 + Math.floor(rand() * sections)}.`, "");
    }
  }
  return lines.join("\n");
}

/** State of a generated corpus folder: file number → version written. */
export type CorpusState = Map<number, number>;

/** Writes `count` acts (version 1) into `dir` and returns the state. */
export async function writeCorpus(dir: string, count: number, sections = 10): Promise<CorpusState> {
  await mkdir(dir, { recursive: true });
  const state: CorpusState = new Map();
  for (let n = 1; n <= count; n++) {
    await writeFile(join(dir, actFile(n)), actText(n, 1, sections));
    state.set(n, 1);
  }
  return state;
}

/** File name of act `n`. */
export function actFile(n: number): string {
  return `act-${String(n).padStart(3, "0")}.md`;
}

/**
 * Changes a corpus between crash iterations: rewrites about a fifth of the files with a new version,
 * removes one file and adds one (so updates, removals and additions are all interrupted at some point).
 */
export async function mutateCorpus(dir: string, state: CorpusState, rand: () => number, sections = 10): Promise<void> {
  for (const [n, v] of state) {
    if (rand() < 0.2) {
      await writeFile(join(dir, actFile(n)), actText(n, v + 1, sections));
      state.set(n, v + 1);
    }
  }
  const ids = [...state.keys()];
  const gone = ids[Math.floor(rand() * ids.length)];
  await rm(join(dir, actFile(gone)), { force: true });
  state.delete(gone);
  const added = Math.max(...ids) + 1;
  await writeFile(join(dir, actFile(added)), actText(added, 1, sections));
  state.set(added, 1);
}
