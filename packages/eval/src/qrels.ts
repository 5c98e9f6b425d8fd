import { HierdocError } from "@hierdoc/core";

/** A document the gold evidence lives in, with the file stems that identify it in `source_path`. */
export interface QrelsDocument {
  /** Stable id used by passages and gold evidence. */
  id: string;
  /**
   * File stems (basename without extension) a result's `source_path` may carry for this document.
   * Registered rank by rank: every document's first alias, then every document's second alias, …;
   * a later registration of the same normalised stem re-points it.
   */
  aliases: string[];
  title?: string;
}

/** One passage of the projection universe: a unit that ranked chunks are projected onto. */
export interface QrelsPassage {
  doc: string;
  id: string;
  /** Passage text (text matching). */
  text?: string;
  /** `[start, end)` offsets into the document's converted text (span matching). */
  start?: number;
  end?: number;
}

/** Gold evidence: a universe passage by id, a passage by text, a character span, or a chunk id. */
export type GoldEvidence =
  | { doc: string; passage: string }
  | { doc: string; text: string }
  | { doc: string; start: number; end: number }
  | { chunk: string };

/** One query with its gold evidence; `meta` is copied into per-query records. */
export interface QrelsQuery {
  id: string;
  query: string;
  gold: GoldEvidence[];
  meta?: Record<string, unknown>;
}

/**
 * How a chunk "covers" a passage. `text` (the ObliQA reference rule): same document, and the passage's
 * normalised text (its first `probeChars` code points) is inside the chunk's normalised content, or the
 * chunk's content (at least `minChunkChars`) is inside the passage; passages shorter than
 * `minPassageChars` are never covered. `span`: the same rule on `[start, end)` offsets.
 */
export interface MatchingOptions {
  mode: "text" | "span";
  minPassageChars: number;
  probeChars: number;
  minChunkChars: number;
}

/** The hierdoc qrels format (`format: "hierdoc-qrels"`, version 1). */
export interface Qrels {
  format: "hierdoc-qrels";
  version: 1;
  name?: string;
  matching: MatchingOptions;
  documents: QrelsDocument[];
  passages: QrelsPassage[];
  queries: QrelsQuery[];
}

/** The reference scorer's matching constants (score_obliqa.py). */
export const DEFAULT_MATCHING: Readonly<MatchingOptions> = Object.freeze({
  mode: "text",
  minPassageChars: 40,
  probeChars: 300,
  minChunkChars: 80,
});

function fail(message: string, path: string): never {
  throw new HierdocError("E_PARSE", `invalid qrels at ${path}: ${message}`, { details: { path } });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function idOf(v: unknown, path: string): string {
  if (typeof v === "string" && v.length > 0) return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return fail("expected a non-empty string or number id", path);
}

function offset(v: unknown, path: string): number {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  return fail("expected a non-negative integer offset", path);
}

function parseGold(v: unknown, path: string): GoldEvidence {
  if (!isObject(v)) return fail("expected an object", path);
  if (v.chunk !== undefined) return { chunk: idOf(v.chunk, `${path}.chunk`) };
  const doc = idOf(v.doc, `${path}.doc`);
  if (v.passage !== undefined) return { doc, passage: idOf(v.passage, `${path}.passage`) };
  if (typeof v.text === "string") return { doc, text: v.text };
  if (v.start !== undefined || v.end !== undefined) {
    const start = offset(v.start, `${path}.start`);
    const end = offset(v.end, `${path}.end`);
    if (end <= start) fail("end must be greater than start", path);
    return { doc, start, end };
  }
  return fail("gold needs `chunk`, `passage`, `text` or `start`/`end`", path);
}

/** Validates one query record (JSON object) of a qrels file. Throws `E_PARSE` with the JSON path. */
export function parseQrelsQuery(v: unknown, path = "query"): QrelsQuery {
  if (!isObject(v)) return fail("expected an object", path);
  const id = idOf(v.id, `${path}.id`);
  if (typeof v.query !== "string") fail("expected a string", `${path}.query`);
  if (!Array.isArray(v.gold) || v.gold.length === 0) fail("expected a non-empty array", `${path}.gold`);
  const gold = (v.gold as unknown[]).map((g, i) => parseGold(g, `${path}.gold[${i}]`));
  const chunkGold = gold.filter((g) => "chunk" in g).length;
  if (chunkGold > 0 && chunkGold < gold.length) fail("chunk ids and passages cannot be mixed", `${path}.gold`);
  const out: QrelsQuery = { id, query: v.query as string, gold };
  if (isObject(v.meta)) out.meta = v.meta;
  return out;
}

function parseMatching(v: unknown): MatchingOptions {
  if (v === undefined) return { ...DEFAULT_MATCHING };
  if (!isObject(v)) return fail("expected an object", "matching");
  const m = { ...DEFAULT_MATCHING, ...v } as MatchingOptions;
  if (m.mode !== "text" && m.mode !== "span") fail('expected "text" or "span"', "matching.mode");
  for (const key of ["minPassageChars", "probeChars", "minChunkChars"] as const) {
    if (!Number.isInteger(m[key]) || m[key] < 0) fail("expected a non-negative integer", `matching.${key}`);
  }
  return m;
}

function parseDocument(v: unknown, path: string): QrelsDocument {
  if (!isObject(v)) return fail("expected an object", path);
  const aliases = Array.isArray(v.aliases) ? v.aliases : [];
  if (!aliases.every((a) => typeof a === "string")) fail("expected strings", `${path}.aliases`);
  const doc: QrelsDocument = { id: idOf(v.id, `${path}.id`), aliases: aliases as string[] };
  if (typeof v.title === "string") doc.title = v.title;
  return doc;
}

function parsePassage(v: unknown, path: string): QrelsPassage {
  if (!isObject(v)) return fail("expected an object", path);
  const p: QrelsPassage = { doc: idOf(v.doc, `${path}.doc`), id: idOf(v.id, `${path}.id`) };
  if (typeof v.text === "string") p.text = v.text;
  if (v.start !== undefined) p.start = offset(v.start, `${path}.start`);
  if (v.end !== undefined) p.end = offset(v.end, `${path}.end`);
  return p;
}

/**
 * Validates a parsed qrels JSON object (the `hierdoc-qrels` format) and fills defaults.
 * Throws `HierdocError` `E_PARSE` naming the first bad path, e.g. `queries[3].gold[0].doc`.
 */
export function parseQrels(v: unknown): Qrels {
  if (!isObject(v)) return fail("expected an object", "$");
  if (v.format !== undefined && v.format !== "hierdoc-qrels") fail('expected "hierdoc-qrels"', "format");
  if (!Array.isArray(v.queries)) fail("expected an array", "queries");
  const documents = (Array.isArray(v.documents) ? v.documents : []).map((d, i) => parseDocument(d, `documents[${i}]`));
  const passages = (Array.isArray(v.passages) ? v.passages : []).map((p, i) => parsePassage(p, `passages[${i}]`));
  const queries = (v.queries as unknown[]).map((q, i) => parseQrelsQuery(q, `queries[${i}]`));
  const seen = new Set<string>();
  queries.forEach((q, i) => {
    if (seen.has(q.id)) fail(`duplicate query id ${JSON.stringify(q.id)}`, `queries[${i}].id`);
    seen.add(q.id);
  });
  const qrels: Qrels = { format: "hierdoc-qrels", version: 1, matching: parseMatching(v.matching), documents, passages, queries };
  if (typeof v.name === "string") qrels.name = v.name;
  return qrels;
}

/**
 * Builds qrels from JSON-lines records: `{"type":"header", name?, matching?}`, `{"type":"document", …}`,
 * `{"type":"passage", …}`, and query records (`{"type":"query", …}` or any record with `gold`).
 * Without passages, the projection universe is the gold passages themselves.
 * Throws `E_PARSE` naming the bad line.
 */
export function qrelsFromRecords(records: readonly unknown[]): Qrels {
  const obj: Record<string, unknown> & { documents: unknown[]; passages: unknown[]; queries: unknown[] } = {
    documents: [],
    passages: [],
    queries: [],
  };
  records.forEach((r, i) => {
    if (!isObject(r)) fail("expected an object", `line ${i + 1}`);
    const { type, ...rest } = r;
    if (type === "header") Object.assign(obj, rest);
    else if (type === "document") obj.documents.push(rest);
    else if (type === "passage") obj.passages.push(rest);
    else if (type === "query" || (type === undefined && "gold" in r)) obj.queries.push(rest);
    else fail(`unknown record type ${JSON.stringify(type)}`, `line ${i + 1}`);
  });
  return parseQrels(obj);
}
