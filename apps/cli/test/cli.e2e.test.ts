import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CORPORA, runCli, SAMPLE } from "./run-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-cli-"));
const index = join(tmp, "index");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("hierdoc CLI on the sample corpus (built binary, real GloVe embedder)", () => {
  beforeAll(async () => {
    const res = await runCli(["ingest", SAMPLE, "--index", index], { timeoutMs: 300_000 });
    expect(res.stderr).not.toContain("error:");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/3 added/);
  }, 300_000);

  it("answers a question in JSON with provenance, and content equals the source slice", async () => {
    const res = await runCli(["search", "can a data subject ask for a port record to be erased?", "--index", index, "--json", "--top-k", "5"]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.results).toHaveLength(5);
    const top = out.results[0];
    expect(top.section_id).toMatch(/^Section 4/);
    expect(top.parent_chain.join(" ")).toContain("Part 2");
    for (const r of out.results) expect(readFileSync(r.source_path, "utf8").slice(r.start, r.end)).toBe(r.content);
    expect(Object.keys(top.scores).sort()).toEqual(["exact", "keyword", "semantic"]);
    expect(typeof out.time_to_first_result_ms).toBe("number");
  });

  it("ranks an exact section id first", async () => {
    const res = await runCli(["search", "Section 7", "--index", index, "--json"]);
    const out = JSON.parse(res.stdout);
    expect(out.results[0].section_id).toMatch(/^Section 7/);
  });

  it("prints pretty results with the parent chain and timing on stderr", async () => {
    const res = await runCli(["search", "dry run protection", "--index", index, "--top-k", "2"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^\s+1\. /);
    expect(res.stdout).toContain("›");
    expect(res.stderr).toMatch(/time to first result/);
  });

  it("answers 1,000 queries in one process with --queries", async () => {
    const queries = join(tmp, "q.jsonl");
    const words = ["erasure", "breach", "pump", "seal", "compost", "berth", "Commissioner", "Section 5", "alarm", "water"];
    writeFileSync(queries, Array.from({ length: 1000 }, (_, i) => JSON.stringify({ id: `q${i}`, query: `${words[i % 10]} ${words[(i * 7) % 10]}` })).join("\n") + "\n");
    const res = await runCli(["search", "--queries", queries, "--index", index, "--json", "--top-k", "3"], { timeoutMs: 300_000 });
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1000);
    expect(lines[999].id).toBe("q999");
    expect(lines.every((l) => Array.isArray(l.results) && l.results.length === 3)).toBe(true);
    expect(res.stderr).toMatch(/1000 queries in/);
  }, 300_000);

  it("reuses the index: a second ingest skips unchanged files", async () => {
    const res = await runCli(["ingest", SAMPLE, "--index", index, "--json"]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.files.map((f: { outcome: string }) => f.outcome)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(out.chunks_written).toBe(0);
  });

  it("gives a one-line error naming each bad file, ingests the rest, and keeps the index", async () => {
    const bad = join(tmp, "bad");
    rmSync(bad, { recursive: true, force: true });
    const files = {
      empty: join(tmp, "empty.md"),
      binary: join(tmp, "binary.txt"),
      invalid: join(tmp, "invalid-utf8.txt"),
      good: join(tmp, "good.md"),
    };
    writeFileSync(files.empty, "");
    writeFileSync(files.binary, Buffer.from([0, 1, 2, 3, 0, 0, 255, 254, 0, 7]));
    writeFileSync(files.invalid, Buffer.from([0x48, 0x69, 0x20, 0xc3, 0x28, 0x0a]));
    writeFileSync(files.good, "# Notes\n\n## Rule 9 — Lanterns\n\nEvery pier shall show a green lantern at night.\n");
    const before = JSON.parse((await runCli(["stats", "--index", index, "--json"])).stdout);
    const res = await runCli(["ingest", join(tmp, "missing.md"), files.empty, files.binary, files.invalid, files.good, "--index", index]);
    expect(res.code).toBe(3);
    const errors = res.stderr.split("\n").filter((l) => l.startsWith("error:"));
    expect(errors).toHaveLength(4);
    for (const name of ["missing.md", "empty.md", "binary.txt", "invalid-utf8.txt"]) expect(errors.some((l) => l.includes(name))).toBe(true);
    const after = JSON.parse((await runCli(["stats", "--index", index, "--json"])).stdout);
    expect(after.chunks).toBeGreaterThan(before.chunks);
    const lantern = JSON.parse((await runCli(["search", "green lantern at night", "--index", index, "--json", "--top-k", "1"])).stdout);
    expect(lantern.results[0].source_path).toBe(files.good);
    const erasure = JSON.parse((await runCli(["search", "Section 4", "--index", index, "--json", "--top-k", "1"])).stdout);
    expect(erasure.results[0].section_id).toMatch(/^Section 4/);
  });

  it("looks up sections and defined terms", async () => {
    const sec = await runCli(["section", "Section 2", "--index", index, "--json"]);
    expect(sec.code).toBe(0);
    expect(JSON.parse(sec.stdout).chunks[0].content).toContain("port record");
    const def = await runCli(["define", "port records", "--index", index, "--json"]);
    expect(def.code).toBe(0);
    expect(JSON.parse(def.stdout).definitions[0].definition_text).toContain("vessel");
    const missing = await runCli(["define", "unicorn", "--index", index]);
    expect(missing.code).toBe(4);
  });

  it("says how the index opened: stats (text and --json) and --verbose on any index command", async () => {
    const json = JSON.parse((await runCli(["stats", "--index", index, "--json"])).stdout);
    expect(json.open).toMatchObject({ derived: "loaded", keyword: { state: "loaded" }, store: { graph: expect.any(String) } });
    const text = await runCli(["stats", "--index", index]);
    // The earlier ingests of this file saved their changes as a delta over derived.bin.
    expect(text.stdout).toMatch(/^opened in \d+ ms: derived state loaded with a delta \(\d+ chunks added, \d+ removed\); keyword index loaded; store: graph \w+/m);
    expect(text.stderr).not.toContain("debug:");
    // Without derived.bin and bm25.bin, --verbose says what was rebuilt and why.
    rmSync(join(index, "derived.bin"));
    rmSync(join(index, "keyword"), { recursive: true });
    const verbose = await runCli(["search", "port records", "--index", index, "--verbose", "--json"]);
    expect(verbose.code).toBe(0);
    const debug = verbose.stderr.split("\n").filter((l) => l.startsWith("debug: "));
    expect(debug).toEqual(expect.arrayContaining([
      "debug: derived state scanned from the store: no derived state saved",
      "debug: keyword index rebuilt: no keyword index saved",
      expect.stringMatching(/^debug: store memory opened: graph \w+/),
      expect.stringMatching(/^debug: opened in \d+ ms \(\d+ chunks\)$/),
    ]));
    const again = JSON.parse((await runCli(["stats", "--index", index, "--json"])).stdout);
    expect(again.open).toMatchObject({ derived: "loaded", keyword: { state: "loaded" } });
  });

  it("fails clearly on bad usage and a missing index", async () => {
    const topK = await runCli(["search", "pump", "--index", index, "--top-k", "500"]);
    expect(topK.code).toBe(2);
    expect(topK.stderr).toContain("--top-k");
    const noIndex = await runCli(["search", "pump", "--index", join(tmp, "nope"), "--json"]);
    expect(noIndex.code).toBe(4);
    expect(noIndex.stdout).toBe("");
    expect(JSON.parse(noIndex.stderr.trim()).error.code).toBe("E_INDEX_MISSING");
    for (const cmd of ["ingest", "search", "inspect", "section", "define", "refs", "stats"]) {
      const help = await runCli([cmd, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: hierdoc ${cmd}`);
    }
  });
});

const gdpr = join(CORPORA, "gdpr/gdpr_2016_679.md");
const gdprSuite = existsSync(gdpr) ? describe : describe.skip;
gdprSuite(`hierdoc on the GDPR${existsSync(gdpr) ? "" : " (skipped: ../shared/corpora not present)"}`, () => {
  const gIndex = join(tmp, "gdpr");
  beforeAll(async () => {
    const res = await runCli(["ingest", gdpr, "--index", gIndex], { timeoutMs: 300_000 });
    expect(res.code).toBe(0);
  }, 300_000);

  it("ranks Article 17 first for 'right to erasure' and for 'Article 17', in new processes", async () => {
    for (const q of ["right to erasure", "Article 17"]) {
      const res = await runCli(["search", q, "--index", gIndex, "--json"]);
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout).results[0].section_id).toMatch(/^Article 17\b/);
    }
  });

  it("defines 'personal data' from Article 4(1)", async () => {
    const res = await runCli(["define", "personal data", "--index", gIndex, "--json"]);
    expect(JSON.parse(res.stdout).definitions[0].source_section).toMatch(/^Article 4/);
  });

  it("attaches the definition of 'personal data' and the reference to Article 6(1) to Article 17's result", async () => {
    const res = JSON.parse((await runCli(["search", "erasure of personal data", "--index", gIndex, "--json", "--top-k", "5"])).stdout);
    const art17 = res.results.find((r: { section_id: string }) => r.section_id === "Article 17");
    expect(art17).toBeDefined();
    expect(art17.definitions.find((d: { term: string }) => d.term === "personal data").source_section).toBe("Article 4(1)");
    expect(art17.cross_references.some((x: { target_section_id: string }) => x.target_section_id.startsWith("Article 6(1)"))).toBe(true);
  });

  it("does not leave temporary files in the index folder", () => {
    const leftovers = readdirSync(gIndex, { recursive: true }).map(String).filter((f) => /\.tmp$|\.tmp-/.test(f));
    expect(leftovers).toEqual([]);
  });
});
