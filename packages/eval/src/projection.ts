import { HierdocError } from "@hierdoc/core";
import { codePointLength, codePointPrefix, hasNonWhitespace, normalizeText, pathStem } from "./python-compat.js";
import type { GoldEvidence, Qrels, QrelsPassage } from "./qrels.js";
import type { RunResult } from "./run.js";

/** Key of a universe passage (`doc` NUL `passage id`); see {@link splitUnitKey}. */
export function unitKey(doc: string, id: string): string {
  return `${doc}\u0000${id}`;
}

/** Splits a key made by {@link unitKey}; chunk-level keys have `doc: null`. */
export function splitUnitKey(key: string): { doc: string | null; id: string } {
  const at = key.indexOf("\u0000");
  return at < 0 ? { doc: null, id: key } : { doc: key.slice(0, at), id: key.slice(at + 1) };
}

interface UnitEntry {
  key: string;
  text: string;
  probe: string;
  length: number;
  start?: number;
  end?: number;
}

/** Maps results to the passages they cover and gold evidence to passage keys, for one qrels. */
export interface Projector {
  /** The document a `source_path` belongs to, or `undefined`. */
  docOf(sourcePath: string | null | undefined): string | undefined;
  /** Keys of the universe passages a result covers, in universe (document) order; may repeat a key. */
  covered(result: RunResult): string[];
  /** The passage keys (or chunk ids) of a query's gold evidence. */
  goldKeys(gold: readonly GoldEvidence[]): Set<string>;
}

function entryOf(key: string, text: string | undefined, start: number | undefined, end: number | undefined, probeChars: number): UnitEntry {
  const norm = normalizeText(text);
  const e: UnitEntry = { key, text: norm, probe: codePointPrefix(norm, probeChars), length: codePointLength(norm) };
  if (start !== undefined && end !== undefined) {
    e.start = start;
    e.end = end;
  }
  return e;
}

/**
 * Prepares the projection of a qrels: the document alias table (ordered as the reference scorer builds
 * it), the passage universe per document, and passages synthesised from text or span gold evidence.
 * Throws `E_INVALID_ARGUMENT` when gold evidence cannot be matched in the qrels' matching mode.
 */
export function createProjector(qrels: Qrels): Projector {
  const { mode, probeChars, minPassageChars, minChunkChars } = qrels.matching;
  const aliases = new Map<string, string>();
  const rounds = Math.max(0, ...qrels.documents.map((d) => d.aliases.length));
  for (let r = 0; r < rounds; r++) {
    for (const d of qrels.documents) if (r < d.aliases.length) aliases.set(normalizeText(d.aliases[r]), d.id);
  }
  const byDoc = new Map<string, UnitEntry[]>();
  const byText = new Map<string, string>();
  const bySpan = new Map<string, string>();
  const add = (doc: string, e: UnitEntry): void => {
    let list = byDoc.get(doc);
    if (!list) byDoc.set(doc, (list = []));
    list.push(e);
    if (!byText.has(unitKey(doc, e.text))) byText.set(unitKey(doc, e.text), e.key);
    if (e.start !== undefined && !bySpan.has(unitKey(doc, `${e.start}-${e.end}`))) bySpan.set(unitKey(doc, `${e.start}-${e.end}`), e.key);
  };
  const usable = (p: QrelsPassage): boolean => (mode === "text" ? hasNonWhitespace(p.text) : p.start !== undefined && p.end !== undefined);
  for (const p of qrels.passages) if (usable(p)) add(p.doc, entryOf(unitKey(p.doc, p.id), p.text, p.start, p.end, probeChars));

  let synthetic = 0;
  const goldKey = (g: GoldEvidence): string => {
    if ("chunk" in g) return g.chunk;
    if ("passage" in g) return unitKey(g.doc, g.passage);
    if ("text" in g) {
      if (mode !== "text") throw new HierdocError("E_INVALID_ARGUMENT", `text gold needs matching.mode "text" (doc ${g.doc})`);
      const norm = normalizeText(g.text);
      const found = byText.get(unitKey(g.doc, norm));
      if (found) return found;
      const e = entryOf(unitKey(g.doc, `#text-${++synthetic}`), g.text, undefined, undefined, probeChars);
      add(g.doc, e);
      return e.key;
    }
    if (mode !== "span") throw new HierdocError("E_INVALID_ARGUMENT", `span gold needs matching.mode "span" (doc ${g.doc})`);
    const found = bySpan.get(unitKey(g.doc, `${g.start}-${g.end}`));
    if (found) return found;
    const e = entryOf(unitKey(g.doc, `#span-${g.start}-${g.end}`), undefined, g.start, g.end, probeChars);
    add(g.doc, e);
    return e.key;
  };
  for (const q of qrels.queries) for (const g of q.gold) goldKey(g);

  const docCache = new Map<string, string | undefined>();
  const docOf = (sourcePath: string | null | undefined): string | undefined => {
    const stem = pathStem(sourcePath);
    if (docCache.has(stem)) return docCache.get(stem);
    let doc = aliases.get(stem);
    if (doc === undefined) {
      for (const [s, d] of aliases) {
        if (s && (stem.includes(s) || s.includes(stem))) {
          doc = d;
          break;
        }
      }
    }
    docCache.set(stem, doc);
    return doc;
  };

  const coveredText = (units: readonly UnitEntry[], result: RunResult): string[] => {
    const c = normalizeText(typeof result.content === "string" ? result.content : "");
    if (!c) return [];
    const chunkLong = codePointLength(c) >= minChunkChars;
    const out: string[] = [];
    for (const u of units) {
      if (u.length < minPassageChars) continue;
      if (c.includes(u.probe) || (chunkLong && u.text.includes(c))) out.push(u.key);
    }
    return out;
  };
  const coveredSpan = (units: readonly UnitEntry[], result: RunResult): string[] => {
    const { start, end } = result;
    if (typeof start !== "number" || typeof end !== "number" || end <= start) return [];
    const out: string[] = [];
    for (const u of units) {
      const us = u.start as number;
      const ue = u.end as number;
      if (ue - us < minPassageChars) continue;
      const probeEnd = Math.min(ue, us + probeChars);
      if ((start <= us && probeEnd <= end) || (end - start >= minChunkChars && us <= start && end <= ue)) out.push(u.key);
    }
    return out;
  };

  return {
    docOf,
    covered(result) {
      const doc = docOf(typeof result.source_path === "string" ? result.source_path : "");
      if (doc === undefined) return [];
      const units = byDoc.get(doc) ?? [];
      return mode === "text" ? coveredText(units, result) : coveredSpan(units, result);
    },
    goldKeys(gold) {
      const keys = new Set<string>();
      for (const g of gold) {
        const k = goldKey(g);
        keys.add(k);
      }
      return keys;
    },
  };
}
