import { HierdocError } from "@hierdoc/core";
import { hasNonWhitespace, type Qrels, type QrelsDocument, type QrelsPassage, type QrelsQuery } from "@hierdoc/eval";

/** One ObliQA question (`ObliQA_dev.json` rows). */
export interface ObliqaQuestion {
  QuestionID: string;
  Question: string;
  Passages: { DocumentID: number | string; PassageID: string; Passage?: string }[];
  Group?: number;
}

/** One passage of `StructuredRegulatoryDocuments/N.json`. */
export interface ObliqaPassage {
  ID?: string;
  DocumentID: number | string;
  PassageID: string;
  Passage?: string | null;
}

/** The parsed ObliQA files the converter needs. */
export interface ObliqaInput {
  questions: readonly ObliqaQuestion[];
  /** `document_files.json`: DocumentID → TXT file name. */
  documentFiles: Readonly<Record<string, string>>;
  /** `document_id_map.json`: DocumentID → [file stem, short name, titles…]. */
  documentIdMap: Readonly<Record<string, readonly string[]>>;
  /** The contents of every `StructuredRegulatoryDocuments/*.json`, in any order. */
  structured: readonly (readonly ObliqaPassage[])[];
}

/** Python `int()` of a DocumentID, as a string id. */
function docId(v: number | string): string {
  const n = typeof v === "number" ? v : /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw new HierdocError("E_PARSE", `ObliQA DocumentID is not an integer: ${JSON.stringify(v)}`);
  return String(n);
}

/** Python `os.path.splitext(name)[0]`. */
export function splitextStem(name: string): string {
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || name.slice(0, dot).split("").every((c) => c === ".")) return name;
  return name.slice(0, dot);
}

const byNumber = (a: string, b: string): number => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Converts ObliQA into hierdoc qrels with the reference scorer's semantics: documents are matched by the
 * `document_id_map` stem and then the TXT file stem (which wins), the projection universe is every
 * non-blank passage of the structured documents, and gold is the question's (DocumentID, PassageID) set.
 * Throws `E_PARSE` for a DocumentID that is not an integer.
 */
export function convertObliqa(input: ObliqaInput, name = "ObliQA"): Qrels {
  const ids = [...new Set([...Object.keys(input.documentIdMap), ...Object.keys(input.documentFiles)])];
  const mapIds = Object.keys(input.documentIdMap).sort(byNumber);
  const fileOnly = ids.filter((id) => !(id in input.documentIdMap)).sort(byNumber);
  const documents: QrelsDocument[] = [...mapIds, ...fileOnly].map((id) => {
    const aliases: string[] = [];
    const row = input.documentIdMap[id];
    if (row) aliases.push(row[0]);
    const file = input.documentFiles[id];
    if (file !== undefined) aliases.push(splitextStem(file));
    const doc: QrelsDocument = { id: docId(id), aliases };
    if (row && row.length > 1) doc.title = row[row.length - 1];
    return doc;
  });
  const passages: QrelsPassage[] = [];
  const groups = input.structured
    .filter((ps) => ps.length > 0)
    .map((ps) => ({ doc: docId(ps[0].DocumentID), ps }))
    .sort((a, b) => byNumber(a.doc, b.doc));
  for (const { ps } of groups) {
    for (const p of ps) {
      if (!hasNonWhitespace(p.Passage)) continue;
      passages.push({ doc: docId(p.DocumentID), id: String(p.PassageID), text: p.Passage });
    }
  }
  const queries: QrelsQuery[] = input.questions.map((q) => {
    const out: QrelsQuery = {
      id: q.QuestionID,
      query: q.Question,
      gold: q.Passages.map((p) => ({ doc: docId(p.DocumentID), passage: String(p.PassageID) })),
    };
    if (q.Group !== undefined) out.meta = { group: q.Group };
    return out;
  });
  return {
    format: "hierdoc-qrels",
    version: 1,
    name,
    matching: { mode: "text", minPassageChars: 40, probeChars: 300, minChunkChars: 80 },
    documents,
    passages,
    queries,
  };
}
