import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { evaluateRun, parseQrels, toScorerJson, type Qrels, type RunEntry } from "@hierdoc/eval";
import { convertPolicyqa, loadPolicyqa, readObliqa, convertObliqa, writePolicyDocuments, type ObliqaInput } from "../src/index.js";

const shared = fileURLToPath(new URL("../../../../shared", import.meta.url));
const obliqaDir = join(shared, "corpora", "obliqa");
const policyqaFile = join(shared, "corpora", "policyqa", "dev.json");
const scorer = join(shared, "tools", "score_obliqa.py");
const haveObliqa = existsSync(obliqaDir);
const havePolicyqa = existsSync(policyqaFile);
const havePython = spawnSync("python3", ["--version"]).status === 0;
const skipped = (ok: boolean, what: string): string => (ok ? "" : ` (skipped: ${what} not present)`);

describe("PolicyQA converter on a hand-made SQuAD file", () => {
  const squad = {
    data: [
      {
        title: "shop.example",
        paragraphs: [
          { context: "We collect your e-mail address when you register.", qas: [{ id: "q1", question: "What is collected?", answers: [{ text: "your e-mail address", answer_start: 11 }] }] },
          { context: "We never sell personal data to third parties.", qas: [{ id: "q2", question: "Is data sold?", answers: [{ text: "never sell", answer_start: 3 }] }] },
        ],
      },
      { title: "news/site", paragraphs: [{ context: "Cookies remember your preferences.", qas: [] }] },
    ],
  };

  it("joins segments into one document per policy with exact spans", () => {
    const { qrels, documents } = convertPolicyqa(squad);
    expect(documents.map((d) => d.file)).toEqual(["shop.example.txt", "news_site.txt"]);
    const text = documents[0].text;
    for (const p of qrels.passages.filter((x) => x.doc === "shop.example")) expect(text.slice(p.start, p.end)).toBe(p.text);
    const answers = qrels.queries[1].meta?.answers as { text: string; start: number; end: number }[];
    expect(text.slice(answers[0].start, answers[0].end)).toBe("never sell");
    expect(qrels.queries[1].gold).toEqual([{ doc: "shop.example", passage: "seg-1" }]);
    expect(qrels.documents[1]).toEqual({ id: "news/site", aliases: ["news_site"], title: "news/site" });
  });

  it("rejects an answer whose span does not match its segment", () => {
    const bad = structuredClone(squad);
    bad.data[0].paragraphs[0].qas[0].answers[0].answer_start = 12;
    expect(() => convertPolicyqa(bad)).toThrow(expect.objectContaining({ code: "E_PARSE" }));
  });
});

(havePolicyqa ? describe : describe.skip)(`PolicyQA dev conversion${skipped(havePolicyqa, "../shared/corpora/policyqa")}`, () => {
  let dir = "";
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it("has 20 policies, 574 segments, 3,809 questions; an oracle run scores 1 by text and by span", async () => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-policyqa-"));
    const conv = await loadPolicyqa(policyqaFile);
    const written = await writePolicyDocuments(conv, dir);
    expect([written.length, conv.qrels.passages.length, conv.qrels.queries.length]).toEqual([20, 574, 3809]);
    expect(readdirSync(dir)).toHaveLength(20);
    const texts = new Map(conv.documents.map((d) => [d.file.replace(/\.txt$/, ""), readFileSync(join(dir, d.file), "utf8")]));
    const byKey = new Map(conv.qrels.passages.map((p) => [`${p.doc}\u0000${p.id}`, p]));
    const stemOf = new Map(conv.qrels.documents.map((d) => [d.id, d.aliases[0]]));
    const run: RunEntry[] = conv.qrels.queries.map((q) => {
      const g = q.gold[0] as { doc: string; passage: string };
      const p = byKey.get(`${g.doc}\u0000${g.passage}`)!;
      const stem = stemOf.get(g.doc)!;
      const content = texts.get(stem)!.slice(p.start, p.end);
      return { id: q.id, results: [{ content, source_path: join(dir, `${stem}.txt`), start: p.start, end: p.end }] };
    });
    const byText = evaluateRun(conv.qrels, run).metrics;
    // By text, a short segment repeated inside a longer one is also covered and may take rank 1.
    expect(byText).toMatchObject({ recall: 1, missing: 0 });
    expect(byText.mrr).toBeGreaterThan(0.99);
    const spanQrels: Qrels = parseQrels({ ...conv.qrels, matching: { ...conv.qrels.matching, mode: "span" } });
    expect(evaluateRun(spanQrels, run).metrics).toMatchObject({ recall: 1, mrr: 1 });
    const shifted = run.map((e) => ({ id: e.id, results: e.results!.map((r) => ({ ...r, start: (r.start as number) + 5, end: (r.end as number) + 5 })) }));
    expect(evaluateRun(spanQrels, shifted).metrics.recall).toBeLessThan(0.2);
  });
});

(haveObliqa ? describe : describe.skip)(`ObliQA dev conversion${skipped(haveObliqa, "../shared/corpora/obliqa")}`, () => {
  let input: ObliqaInput;
  let qrels: Qrels;
  beforeAll(async () => {
    input = await readObliqa(obliqaDir);
    qrels = convertObliqa(input);
  });

  it("keeps every question, document and non-blank passage, with the reference alias order", () => {
    const blank = input.structured.flat().filter((p) => !(p.Passage ?? "").trim()).length;
    expect(qrels.queries).toHaveLength(2788);
    expect(qrels.documents).toHaveLength(40);
    expect(qrels.passages).toHaveLength(input.structured.flat().length - blank);
    expect(qrels.documents.find((d) => d.id === "27")?.aliases).toEqual(["GPM_VER03.120623", "GPM VER03.120623"]);
    expect(qrels.queries[0].gold).toEqual([{ doc: "3", passage: "18.8.2" }]);
  });

  const pyOk = havePython && existsSync(scorer);
  (pyOk ? it : it.skip)(`an oracle run (each gold passage as a chunk) over all 2,788 questions agrees with score_obliqa.py${pyOk ? "" : " (skipped: python3 or ../shared/tools absent)"}`, () => {
    const text = new Map(input.structured.flat().map((p) => [`${p.DocumentID}\u0000${p.PassageID}`, p.Passage ?? ""]));
    const lines = input.questions.map((q) => ({
      id: q.QuestionID,
      results: q.Passages.map((p) => ({ content: text.get(`${p.DocumentID}\u0000${p.PassageID}`), source_path: input.documentFiles[String(p.DocumentID)] })),
    }));
    const dir = mkdtempSync(join(tmpdir(), "hierdoc-obliqa-oracle-"));
    try {
      const file = join(dir, "oracle.jsonl");
      writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n"));
      const py = JSON.parse(execFileSync("python3", [scorer, "score", join(obliqaDir, "ObliQA_dev.json"), file], { encoding: "utf8" }));
      const ours = evaluateRun(qrels, lines as RunEntry[]).metrics;
      expect(toScorerJson(ours)).toEqual(py);
      expect(ours.recall).toBeGreaterThan(0.99);
      expect(ours.map).toBeLessThanOrEqual(ours.recall);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
