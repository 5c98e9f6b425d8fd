import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolConfigSchema, type ChunkRecord, type CrossReference } from "@hierdoc/core";
import { SectionResolver, extractCrossReferences, parseCodeTitle } from "@hierdoc/definitions";
import { HashEmbedder } from "@hierdoc/embeddings";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool } from "@hierdoc/tool";
import { corpora, haveCorpora, loadDoc, parse, readJsonl, resolverEntries } from "./definitions-gold-helpers.js";

const TITLES = ["01", "04", "09", "17", "35", "44", "51"];
const present = haveCorpora && TITLES.every((t) => existsSync(join(corpora, `uscode/md/usc${t}.md`)));
const skip = present ? "" : " (skipped: ../shared/corpora/uscode not present)";
const d = present ? describe : describe.skip;

/** Section numbers of a title, from the gold section list. */
function goldNumbers(t: string): Set<string> {
  return new Set(readJsonl<{ num: string }>(`uscode/md/usc${t}.sections.jsonl`).map((r) => r.num));
}

/** "§ 2902(a)" → "2902"; "Chapter 17" → null (not a section). */
function sectionNumber(id: string | null): string | null {
  const m = id ? /^§\s*([0-9][0-9A-Za-z-]*)/.exec(id) : null;
  return m ? m[1] : null;
}

const pct = (n: number, of: number) => (of ? Math.round((1000 * n) / of) / 10 : 100);

/** How one citation of another title came out: right title and section, or external when it must be. */
interface Verdict {
  ok: boolean;
  line: string;
}

/**
 * Judges a resolved citation of title `cited` made in title `from`: when `cited` is indexed (`fileOf`) and has
 * the section, it must resolve into that file and section; when it is indexed but lacks the section, or is
 * not indexed, it must stay external and name the cited title.
 */
function judge(ref: CrossReference, resolved: CrossReference, cited: string, fileOf: Map<string, string>, numbers: Map<string, Set<string>>): Verdict {
  const line = `${ref.fromSectionId}: "${ref.text}" → ${resolved.external ? `external ${resolved.citedDocument ?? ""}` : `${resolved.targetSectionId} in ${resolved.targetChunkId}`}`;
  const file = fileOf.get(cited);
  const num = sectionNumber(ref.targetSectionId);
  const targetFile = resolved.targetChunkId ? resolved.targetChunkId.replace(/_chunk_\d+$/, "") : null;
  if (!file) return { ok: resolved.external && resolved.citedDocument === `title ${cited}`, line };
  if (num === null) return { ok: !resolved.external && targetFile === file && resolved.targetSectionId === ref.targetSectionId, line };
  if (!numbers.get(cited)?.has(num)) return { ok: resolved.external && resolved.citedDocument === `title ${cited}`, line };
  return { ok: !resolved.external && targetFile === file && sectionNumber(resolved.targetSectionId) === num, line };
}

d(`citations of another US Code title resolve into that title when it is indexed${skip}`, () => {
  it("all seven titles in one resolver: cross-title citations land in the cited title, the others stay external", () => {
    const numbers = new Map(TITLES.map((t) => [String(Number(t)), goldNumbers(t)]));
    const docs = TITLES.map((t) => {
      const doc = loadDoc(`uscode/md/usc${t}.md`, "markdown");
      return { title: String(Number(t)), doc, ...parse(doc) };
    });
    const fileOf = new Map(docs.map((x) => [x.title, x.doc.sourcePath]));
    const resolver = new SectionResolver(docs.flatMap((x) => resolverEntries(x.doc.sourcePath, x.sections, x.chunks)));
    const indexed: Verdict[] = [];
    const absent: Verdict[] = [];
    for (const x of docs) {
      for (const ref of extractCrossReferences(x.doc, x.sections, x.chunks)) {
        const cited = ref.citedDocument ? parseCodeTitle(ref.citedDocument) : null;
        if (!cited || cited.code !== "usc" || cited.title === x.title) continue;
        const v = judge(ref, resolver.resolve(ref, x.doc.sourcePath), cited.title, fileOf, numbers);
        (fileOf.has(cited.title) ? indexed : absent).push({ ok: v.ok, line: `title ${x.title} ${v.line}` });
      }
    }
    // Tagged gold (the USLM <ref> hrefs) between indexed titles: each must be found and resolved as tagged.
    let goldAll = 0;
    let goldOk = 0;
    for (const x of docs) {
      const resolved = extractCrossReferences(x.doc, x.sections, x.chunks).map((r) => resolver.resolve(r, x.doc.sourcePath));
      for (const g of readJsonl<{ from: string; href: string | null; text: string }>(`uscode/md/usc${x.title.padStart(2, "0")}.xrefs.jsonl`)) {
        const m = /^\/us\/usc\/t(\d+)\/s([^/]+)/.exec(g.href ?? "");
        if (!m || m[1] === x.title || !fileOf.has(m[1])) continue;
        goldAll++;
        const from = `§ ${/\/s([^/]+)/.exec(g.from)?.[1]}`;
        if (resolved.some((r) => r.fromSectionId === from && !r.external && r.targetChunkId?.startsWith(`${fileOf.get(m[1])}_chunk_`) && sectionNumber(r.targetSectionId) === m[2])) goldOk++;
      }
    }
    const okIndexed = indexed.filter((v) => v.ok).length;
    const okAbsent = absent.filter((v) => v.ok).length;
    console.log(
      [
        `cross-title citations between indexed titles: ${okIndexed}/${indexed.length} right (${pct(okIndexed, indexed.length)}%)`,
        `tagged gold between indexed titles: ${goldOk}/${goldAll} resolved as tagged (${pct(goldOk, goldAll)}%)`,
        `citations of titles not indexed: ${okAbsent}/${absent.length} external with the title (${pct(okAbsent, absent.length)}%)`,
        ...indexed.map((v) => `  ${v.ok ? "ok  " : "MISS"} ${v.line}`),
        ...absent.filter((v) => !v.ok).slice(0, 10).map((v) => `  MISS ${v.line}`),
      ].join("\n"),
    );
    expect(indexed.length).toBeGreaterThanOrEqual(5);
    expect(okIndexed / indexed.length).toBeGreaterThanOrEqual(0.95);
    expect(goldAll).toBeGreaterThanOrEqual(4);
    expect(goldOk).toBe(goldAll);
    expect(absent.length).toBeGreaterThanOrEqual(100);
    expect(okAbsent).toBe(absent.length);
  });
});

d(`two real titles in one tool index: title 17 (markdown) and title 44 (USLM XML)${skip}`, () => {
  const md17 = join(corpora, "uscode/md/usc17.md");
  const xml44 = join(corpora, "uscode/xml/usc44.xml");
  let tool: HierarchicalDocumentTool;
  let records: ChunkRecord[];
  beforeAll(async () => {
    const config = ToolConfigSchema.parse({ name: "x", type: "hierarchical_document", source: "." });
    tool = await HierarchicalDocumentTool.open({
      config,
      indexDir: mkdtempSync(join(tmpdir(), "hierdoc-titles-")),
      store: new MemoryStore(),
      embedder: new HashEmbedder({ dimensions: 64 }),
    });
    const report = await tool.ingest([md17, xml44]);
    expect(report.files.map((f) => f.outcome)).toEqual(["added", "added"]);
    records = [];
    for await (const r of tool.store.scan()) records.push(r);
  }, 120_000);
  afterAll(async () => {
    await tool.close();
    rmSync(tool.indexDir, { recursive: true, force: true });
  });

  it("'T U.S.C. N' and 'title T section N' find title T's § N first (every gold section of both titles, shared numbers included)", async () => {
    const shared = new Set([...goldNumbers("17")].filter((n) => goldNumbers("44").has(n)));
    let queries = 0;
    let rank1 = 0;
    let sharedQueries = 0;
    let sharedRank1 = 0;
    const misses: string[] = [];
    for (const [t, file] of [["17", md17], ["44", xml44]] as const) {
      for (const num of goldNumbers(t)) {
        for (const q of [`${t} U.S.C. ${num}`, `title ${t} section ${num}`]) {
          const top = (await tool.search(q, { topK: 3, mode: "exact" })).results[0];
          const ok = top?.sourcePath === file && top.sectionId === `§ ${num}`;
          queries++;
          rank1 += ok ? 1 : 0;
          if (shared.has(num)) {
            sharedQueries++;
            sharedRank1 += ok ? 1 : 0;
          }
          if (!ok && misses.length < 10) misses.push(`${q} → ${top ? `${top.sectionId} in ${top.sourcePath.split("/").pop()}` : "nothing"}`);
        }
      }
    }
    console.log(
      `title-qualified exact lookups: ${rank1}/${queries} rank 1 (${pct(rank1, queries)}%); numbers in both titles (${shared.size}): ${sharedRank1}/${sharedQueries} (${pct(sharedRank1, sharedQueries)}%)${misses.length ? `; e.g. ${misses.join("; ")}` : ""}`,
    );
    expect(shared.size).toBeGreaterThanOrEqual(50);
    expect(sharedRank1 / sharedQueries).toBeGreaterThanOrEqual(0.99);
    expect(rank1 / queries).toBeGreaterThanOrEqual(0.99);
  }, 120_000);

  it("the tool's refs(): title 17's citations of title 44 resolve into the USLM title 44, citations of other titles stay external", async () => {
    const numbers = new Map([["17", goldNumbers("17")], ["44", goldNumbers("44")]]);
    const fileOf = new Map([["17", md17], ["44", xml44]]);
    const citing = new Map<string, { own: string; file: string; sectionId: string }>();
    for (const r of records) {
      const own = r.sourcePath === md17 ? "17" : "44";
      for (const x of r.crossReferences) {
        const cited = x.citedDocument ? parseCodeTitle(x.citedDocument) : null;
        const num = sectionNumber(r.sectionId);
        if (cited?.code === "usc" && cited.title !== own && num) citing.set(`${own} U.S.C. ${num}`, { own, file: r.sourcePath, sectionId: r.sectionId });
      }
    }
    const verdicts: Verdict[] = [];
    for (const [id, { own, file, sectionId }] of citing) {
      const { outgoing } = await tool.refs(id);
      // refs() resolves the section's stored references in chunk order: pair each with the one as extracted.
      const raw = records
        .filter((r) => r.sourcePath === file && r.sectionId === sectionId)
        .sort((a, b) => a.chunkIndex - b.chunkIndex)
        .flatMap((r) => r.crossReferences);
      expect(outgoing.length).toBe(raw.length);
      raw.forEach((x, i) => {
        const cited = x.citedDocument ? parseCodeTitle(x.citedDocument) : null;
        if (cited?.code === "usc" && cited.title !== own) verdicts.push(judge(x, outgoing[i], cited.title, fileOf, numbers));
      });
    }
    const ok = verdicts.filter((v) => v.ok).length;
    const intoOther = verdicts.filter((v) => v.ok && !v.line.includes("→ external"));
    console.log(
      `refs() of the ${citing.size} sections citing another title: ${ok}/${verdicts.length} right (${pct(ok, verdicts.length)}%), ${intoOther.length} resolved into the other indexed title\n` +
        verdicts.filter((v) => !v.ok || !v.line.includes("→ external")).map((v) => `  ${v.ok ? "ok  " : "MISS"} ${v.line}`).join("\n"),
    );
    expect(intoOther.length).toBeGreaterThanOrEqual(2);
    expect(verdicts.length).toBeGreaterThanOrEqual(50);
    expect(ok).toBe(verdicts.length);
  }, 120_000);

  it("'section 2901 of title 44' in title 17 is listed as incoming by refs('44 U.S.C. 2901')", async () => {
    const { incoming, sectionId } = await tool.refs("44 U.S.C. 2901");
    expect(sectionId).toBe("§ 2901");
    expect(incoming.filter((x) => x.sourcePath === md17).map((x) => [x.fromSectionId, x.text])).toEqual([["§ 704", "section 2901 of title 44"]]);
    expect(readFileSync(md17, "utf8")).toContain("section 2901 of title 44");
  });
});
