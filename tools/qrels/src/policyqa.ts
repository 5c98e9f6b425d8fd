import { HierdocError } from "@hierdoc/core";
import type { MatchingOptions, Qrels, QrelsDocument, QrelsPassage, QrelsQuery } from "@hierdoc/eval";

/** PolicyQA (SQuAD v1 format) as in `policyqa/dev.json`. */
export interface SquadDataset {
  version?: string;
  data: {
    title: string;
    paragraphs: {
      context: string;
      index?: number;
      qas: { id: string; question: string; type?: string; answers: { text: string; answer_start: number }[] }[];
    }[];
  }[];
}

/** A policy as a plain-text document to write for ingestion. */
export interface PolicyDocument {
  /** File name (`<title>.txt`, unsafe characters replaced by `_`). */
  file: string;
  text: string;
}

/** The converter's output: qrels plus the documents the qrels refer to. */
export interface PolicyqaConversion {
  qrels: Qrels;
  documents: PolicyDocument[];
}

/** Options of {@link convertPolicyqa}. */
export interface PolicyqaOptions {
  /** Text between segments in a policy's file (default a blank line). */
  separator?: string;
  /** `text` (default) matches chunks by content, `span` by offsets into the written file. */
  mode?: MatchingOptions["mode"];
  name?: string;
}

/** File-system-safe file stem for a policy title. */
export function policyFileStem(title: string): string {
  return title.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "_") || "policy";
}

/**
 * Converts PolicyQA into hierdoc qrels: each policy becomes one document (its segments joined by
 * `separator`), each segment a universe passage with its text and `[start, end)` span in that document,
 * and each question's gold is the segment holding its answers (answer spans are kept in `meta`).
 * Segments are short (from 24 characters), so `minPassageChars` is 20 rather than the ObliQA 40.
 * Throws `E_PARSE` when an answer span does not match its segment text or titles collide.
 */
export function convertPolicyqa(squad: SquadDataset, options: PolicyqaOptions = {}): PolicyqaConversion {
  const separator = options.separator ?? "\n\n";
  const documents: PolicyDocument[] = [];
  const qdocs: QrelsDocument[] = [];
  const passages: QrelsPassage[] = [];
  const queries: QrelsQuery[] = [];
  const stems = new Set<string>();
  for (const policy of squad.data) {
    const stem = policyFileStem(policy.title);
    if (stems.has(stem)) throw new HierdocError("E_PARSE", `two PolicyQA policies map to the file ${stem}.txt`);
    stems.add(stem);
    const doc = policy.title;
    qdocs.push({ id: doc, aliases: [stem], title: policy.title });
    let text = "";
    policy.paragraphs.forEach((para, i) => {
      if (i > 0) text += separator;
      const start = text.length;
      text += para.context;
      const seg = `seg-${para.index ?? i}`;
      passages.push({ doc, id: seg, text: para.context, start, end: text.length });
      for (const qa of para.qas) {
        const answers = qa.answers.map((a) => {
          if (para.context.slice(a.answer_start, a.answer_start + a.text.length) !== a.text) {
            throw new HierdocError("E_PARSE", `PolicyQA answer of ${qa.id} does not match its segment text`);
          }
          return { text: a.text, start: start + a.answer_start, end: start + a.answer_start + a.text.length };
        });
        const meta: Record<string, unknown> = { segment: seg, answers };
        if (qa.type !== undefined) meta.type = qa.type;
        queries.push({ id: qa.id, query: qa.question, gold: [{ doc, passage: seg }], meta });
      }
    });
    documents.push({ file: `${stem}.txt`, text });
  }
  const qrels: Qrels = {
    format: "hierdoc-qrels",
    version: 1,
    name: options.name ?? "PolicyQA",
    matching: { mode: options.mode ?? "text", minPassageChars: 20, probeChars: 300, minChunkChars: 80 },
    documents: qdocs,
    passages,
    queries,
  };
  return { qrels, documents };
}
