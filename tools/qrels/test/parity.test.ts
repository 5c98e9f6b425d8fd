import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { evaluateRun, parseRunJsonl, toScorerJson, type Qrels, type RunResult } from "@hierdoc/eval";
import { convertObliqa, queriesJsonl, readObliqa, type ObliqaInput, type ObliqaQuestion } from "../src/index.js";

const shared = fileURLToPath(new URL("../../../../shared", import.meta.url));
const obliqaDir = join(shared, "corpora", "obliqa");
const scorer = join(shared, "tools", "score_obliqa.py");
const havePython = spawnSync("python3", ["--version"]).status === 0;
const ready = havePython && existsSync(obliqaDir) && existsSync(scorer);
const reason = !havePython ? " (skipped: python3 not available)" : !ready ? " (skipped: ../shared/corpora or ../shared/tools not present)" : "";
const d = ready ? describe : describe.skip;

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Doc {
  id: string;
  file: string;
  text: string;
}

/**
 * Synthetic batch-search output built from real ObliQA passages and TXT documents: gold passages at
 * various ranks as windows of the TXT text (so offsets and content are realistic), random distractor
 * windows, chunks inside a passage, duplicates, renamed source paths, missing/null queries, and
 * whitespace/case/width variants of the text.
 */
function syntheticRun(input: ObliqaInput, questions: readonly ObliqaQuestion[], docs: Map<string, Doc>, seed: number): string {
  const rand = rng(seed);
  const int = (n: number): number => Math.floor(rand() * n);
  const allDocs = [...docs.values()];
  const passageText = new Map<string, string>();
  for (const ps of input.structured) for (const p of ps) if (p.Passage) passageText.set(`${p.DocumentID}\u0000${p.PassageID}`, p.Passage);
  const windowAt = (doc: Doc, start: number, len: number, path = doc.file): RunResult => {
    const s = Math.max(0, Math.min(start, doc.text.length - 1));
    const e = Math.min(doc.text.length, s + Math.max(1, len));
    return { content: doc.text.slice(s, e), source_path: path, start: s, end: e, section_id: "" };
  };
  const distractor = (): RunResult => {
    const doc = allDocs[int(allDocs.length)];
    return windowAt(doc, int(doc.text.length), 200 + int(700));
  };
  const goldChunk = (docId: number | string, pid: string, variant: number): RunResult => {
    const doc = docs.get(String(docId));
    const text = passageText.get(`${docId}\u0000${pid}`) ?? "";
    if (!doc) return distractor();
    const at = doc.text.indexOf(text.slice(0, 60));
    if (variant === 1 && at >= 0) return windowAt(doc, at + 5, 60 + int(200));
    if (at >= 0) return windowAt(doc, at - int(300), text.length + int(300) + int(1500));
    return { content: `Preamble. ${text} Trailing words.`, source_path: doc.file, start: 0, end: 0 };
  };
  const lines: string[] = [];
  questions.forEach((q, qi) => {
    const scenario = qi % 12;
    if (scenario === 6) return;
    if (scenario === 7) {
      lines.push(JSON.stringify({ id: q.QuestionID, results: null }));
      return;
    }
    const gold = q.Passages.map((p) => goldChunk(p.DocumentID, p.PassageID, scenario === 4 ? 1 : 0));
    const results: RunResult[] = Array.from({ length: 9 + int(4) }, distractor);
    if (scenario === 0) results.splice(0, 0, ...gold);
    else if (scenario === 1) gold.forEach((g, i) => results.splice(Math.min(results.length, 2 + 4 * i), 0, g));
    else if (scenario === 3 || scenario === 4) gold.forEach((g) => results.splice(int(8), 0, g));
    else if (scenario === 5) gold.forEach((g) => results.splice(10 + int(3), 0, g));
    else if (scenario === 8) gold.forEach((g) => results.splice(int(5), 0, g, { ...g }));
    else if (scenario === 9) {
      gold.forEach((g, i) => {
        const path = i % 2 ? `/data/converted/${String(g.source_path).replace(/\.txt$/, ".converted.md")}` : `./corpus/${g.source_path}`;
        results.splice(int(6), 0, { ...g, source_path: path });
      });
    } else if (scenario === 10) {
      gold.forEach((g) => {
        const content = String(g.content).toUpperCase().replace(/ /g, () => [" ", "\t", "\u00a0", "  \n"][int(4)]).replace(/A/g, () => (rand() < 0.1 ? "\uff21" : "A"));
        results.splice(int(10), 0, { ...g, content });
      });
    } else if (scenario === 11) {
      gold.forEach((g) => results.splice(int(10), 0, { ...g, source_path: rand() < 0.5 ? "" : null }));
    }
    results.forEach((r, i) => {
      r.id = `c${qi}-${i}`;
      r.rank = i + 1;
    });
    lines.push(JSON.stringify({ id: q.QuestionID, results }));
  });
  return lines.join("\n") + "\n";
}

function pythonPrinted(qrelsFile: string, runFile: string, k: number): Record<string, number> {
  const out = execFileSync("python3", [scorer, "score", qrelsFile, runFile, "--k", String(k)], { encoding: "utf8" });
  return JSON.parse(out) as Record<string, number>;
}

/** The same scorer with its final `round` disabled, for full-precision comparison. */
function pythonRaw(qrelsFile: string, runFile: string, k: number): Record<string, number> {
  const code = [
    "import sys, json",
    `sys.path.insert(0, ${JSON.stringify(join(shared, "tools"))})`,
    "import score_obliqa as s",
    "s.round = lambda x, n=None: x",
    "print(json.dumps(s.score(sys.argv[1], sys.argv[2], int(sys.argv[3]))))",
  ].join("\n");
  return JSON.parse(execFileSync("python3", ["-c", code, qrelsFile, runFile, String(k)], { encoding: "utf8" })) as Record<string, number>;
}

d(`evaluateRun agrees with score_obliqa.py on synthetic ObliQA runs${reason}`, () => {
  let dir = "";
  let input: ObliqaInput;
  let qrels: Qrels;
  let subsetFile = "";
  const runs: { name: string; file: string; text: string }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-eval-parity-"));
    input = await readObliqa(obliqaDir);
    const pick = rng(7);
    const subset = input.questions.filter(() => pick() < 0.04);
    subsetFile = join(dir, "subset.json");
    writeFileSync(subsetFile, JSON.stringify(subset));
    qrels = convertObliqa({ ...input, questions: subset });
    const txtDir = join(obliqaDir, "StandardizedRegulatoryDocumentsTXT");
    const present = new Set(readdirSync(txtDir));
    const docs = new Map<string, Doc>();
    for (const [id, file] of Object.entries(input.documentFiles)) {
      if (present.has(file)) docs.set(id, { id, file, text: readFileSync(join(txtDir, file), "utf8") });
    }
    for (const seed of [1, 2]) {
      const text = syntheticRun(input, subset, docs, seed);
      const file = join(dir, `run-${seed}.jsonl`);
      writeFileSync(file, text);
      runs.push({ name: `seed ${seed}`, file, text });
    }
  });

  afterAll(() => {
    if (dir && !process.env.KEEP_PARITY) rmSync(dir, { recursive: true, force: true });
  });

  it("writes the same batch-search queries as make-queries", () => {
    const pyOut = join(dir, "py-queries.jsonl");
    execFileSync("python3", [scorer, "make-queries", subsetFile, pyOut]);
    expect(queriesJsonl(qrels.queries)).toBe(readFileSync(pyOut, "utf8"));
  });

  for (const k of [10, 3]) {
    it(`matches printed and full-precision numbers at k=${k}`, () => {
      for (const run of k === 10 ? runs : runs.slice(0, 1)) {
        const report = evaluateRun(qrels, parseRunJsonl(run.text), { k });
        const m = report.metrics;
        expect(m.recall).toBeGreaterThan(0.1);
        expect(m.recall).toBeLessThan(1);
        expect(toScorerJson(m)).toEqual(pythonPrinted(subsetFile, run.file, k));
        const raw = pythonRaw(subsetFile, run.file, k);
        expect(m.queries).toBe(raw.queries);
        expect(m.missing).toBe(raw.missing);
        expect(m.recall).toBeCloseTo(raw[`recall@${k}`], 9);
        expect(m.map).toBeCloseTo(raw[`map@${k}`], 9);
        expect(m.mrr).toBeCloseTo(raw[`mrr@${k}`], 9);
        expect(m.chunkRecall).toBeCloseTo(raw[`chunk_recall@${k}`], 9);
        expect(m.wordsPerQuery).toBeCloseTo(raw[`words_per_query@${k}`], 9);
      }
    });
  }
});
