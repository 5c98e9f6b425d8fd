import type { Context, Hono } from "hono";
import { HttpError } from "./http-errors.js";
import { definitionJson } from "./json-format.js";
import type { DocumentOutline, OutlineIndex } from "./outline-index.js";
import type { ReadGate } from "./read-gate.js";

type Env = { Variables: { route: string } };

/** What {@link registerBrowseRoutes} needs from the app. */
export interface BrowseContext {
  gate: ReadGate;
  outlines: OutlineIndex;
  /** Longest accepted query-string value (the `queryChars` limit). */
  maxChars: number;
}

function documentJson(d: DocumentOutline): Record<string, unknown> {
  return { source_path: d.sourcePath, title: d.title, chunks: d.chunks, sections: d.sections.length, first_section_id: d.sections[0]?.sectionId ?? null };
}

function queryParam(c: Context<Env>, name: string, maxChars: number): string {
  const value = c.req.query(name)?.trim();
  if (!value) throw new HttpError(400, "E_INVALID_ARGUMENT", `${name}: the query parameter is required`);
  if (value.length > maxChars) throw new HttpError(400, "E_INVALID_ARGUMENT", `${name}: longer than ${maxChars} characters`);
  return value;
}

/**
 * The read-only browsing routes the search page needs besides search / sections / refs / definitions:
 * `GET /definitions` (every defined term), `GET /documents`, `GET /outline?source=PATH` and `GET /stats`.
 * They share the read gate (index lock, request timeout) with the other reads.
 */
export function registerBrowseRoutes(app: Hono<Env>, ctx: BrowseContext): void {
  app.get("/definitions", async (c) => {
    c.set("route", "/definitions");
    const entries = await ctx.gate.read("definitions", (tool) => tool.listDefinitions());
    const sorted = [...entries].sort((a, b) => a.term.localeCompare(b.term, "en", { sensitivity: "base" }) || a.sourceSection.localeCompare(b.sourceSection));
    return c.json({ count: sorted.length, definitions: sorted.map(definitionJson) });
  });

  app.get("/documents", async (c) => {
    c.set("route", "/documents");
    const docs = await ctx.gate.read("documents", () => ctx.outlines.documents());
    return c.json({ documents: docs.map(documentJson) });
  });

  app.get("/outline", async (c) => {
    c.set("route", "/outline");
    const source = queryParam(c, "source", ctx.maxChars);
    const doc = await ctx.gate.read("outline", () => ctx.outlines.outline(source));
    if (!doc) throw new HttpError(404, "E_NOT_FOUND", "no such document in the index");
    return c.json({
      ...documentJson(doc),
      sections: doc.sections.map((s) => ({
        section_id: s.sectionId,
        section_title: s.sectionTitle,
        parent_chain: s.parentChain,
        chunk_type: s.chunkType,
        chunks: s.chunks,
        start: s.start,
      })),
    });
  });

  app.get("/stats", async (c) => {
    c.set("route", "/stats");
    const [s, docs] = await ctx.gate.read("stats", (tool) => Promise.all([tool.stats(), ctx.outlines.documents()]));
    return c.json({
      files: s.files,
      chunks: s.chunks,
      definitions: s.definitions,
      keyword_docs: s.keywordDocs,
      embedder: s.embedder,
      dimensions: s.dimensions,
      store: s.store,
      capabilities: s.capabilities,
      documents: docs.map(documentJson),
    });
  });
}
