// The term index follows an ingest file by file without being rebuilt from every definition so far (that made
// an ingest of many files with definitions quadratic), and answers exactly as one built from the saved
// definitions does (a reopen), after a first ingest and after a re-ingest that changes and removes files.
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TermIndex } from "@hierdoc/definitions";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { openTool, workspace } from "./helpers.js";

const FILES = 30;
const SHARED = ["port record", "port authority", "Authorised Person", "vessel operator"];

function act(i: number, extra = ""): string {
  const terms = [`widget ${i}`, `Licensed Operator ${i}`, SHARED[i % SHARED.length], SHARED[(i * 3 + 1) % SHARED.length]];
  const defs = terms.map((t, k) => `(${"abcd"[k]}) "${t}" means thing ${k} of act ${i}${extra};`).join("\n\n");
  return `# Act ${i}\n\n## Section 1 — Definitions\n\nIn this Act—\n\n${defs}\n\n## Section 2 — Duties\n\nEvery Licensed Operator ${i} keeps each widget ${i} and every port record; an Authorised Person of a vessel operator inspects the port authority.\n`;
}

/** What definitions, term lookups and the definitions attached to results answer, as one value. */
async function answers(tool: HierarchicalDocumentTool): Promise<unknown> {
  const list = tool.listDefinitions().map((d) => [d.id, d.term, d.sourcePath]);
  const defines = ["port record", "Port Records", "authorised persons", "widget 3", "licensed operator 12", "vessel operators"].map((t) => tool.define(t).map((d) => d.id));
  const hits: unknown[] = [];
  for (const q of ["port record", "Licensed Operator 4 widget", "Authorised Person inspects"]) {
    hits.push((await tool.search(q, { mode: "keyword", topK: 20 })).results.map((r) => [r.id, r.definitions.map((d) => [d.term, d.sourceSection, d.definitionText])]));
  }
  return { list, defines, hits };
}

describe("definitions are added to the term index file by file", () => {
  let ws: ReturnType<typeof workspace>;
  const opened: HierarchicalDocumentTool[] = [];
  beforeEach(() => {
    ws = workspace();
    mkdirSync(join(ws.docs, "acts"));
    for (let i = 0; i < FILES; i++) writeFileSync(join(ws.docs, "acts", `act-${String(i).padStart(2, "0")}.md`), act(i));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    for (const t of opened.splice(0)) await t.close().catch(() => undefined);
    ws.cleanup();
  });

  async function open(): Promise<HierarchicalDocumentTool> {
    const tool = await openTool(ws.index);
    opened.push(tool);
    return tool;
  }

  it("a first ingest gives each file's definitions to the term index once (not all so far), and answers as a reopen does", async () => {
    const tool = await open();
    const added = jest.spyOn(TermIndex.prototype, "addAll");
    await tool.ingest([ws.docs]);
    const given = added.mock.calls.reduce((n, [entries]) => n + entries.length, 0);
    added.mockRestore();
    const defined = tool.listDefinitions().length;
    expect(defined).toBeGreaterThanOrEqual(FILES * 4);
    // Each file's own definitions once, plus the index rebuilt once from the derived state saved at the end
    // (rebuilding from every definition so far at each file gave ~FILES / 2 times as many).
    expect(given).toBeLessThanOrEqual(2 * defined);
    const live = await answers(tool);
    await tool.close();
    const again = await open();
    expect(again.openInfo.derived).toBe("loaded");
    expect(await answers(again)).toEqual(live);
  });

  it("after a re-ingest that changes one file's definitions and removes another's, answers as a reopen does", async () => {
    const tool = await open();
    await tool.ingest([ws.docs]);
    writeFileSync(join(ws.docs, "acts", "act-03.md"), act(3, " as amended"));
    rmSync(join(ws.docs, "acts", "act-04.md"));
    await tool.ingest([ws.docs]);
    expect(tool.define("widget 3").map((d) => d.definitionText)).toEqual([expect.stringMatching(/as amended/)]);
    expect(tool.define("widget 4")).toEqual([]);
    expect(tool.define("port record").length).toBeGreaterThan(1);
    const live = await answers(tool);
    await tool.close();
    const again = await open();
    expect(await answers(again)).toEqual(live);
  });
});
