import { HierdocError } from "@hierdoc/core";
import { stemmer } from "stemmer";
import { ENGLISH_STOP_WORDS } from "./stop-words.js";

/** Tokens of one text plus its length as BM25 counts it (one per word, not per extra sub-token). */
export interface AnalyzedText {
  tokens: string[];
  length: number;
}

/** Turns text into index terms. The same analyzer must run on documents and queries. */
export interface Analyzer {
  /** Identity stored with a persisted index; a different id means a different term space. */
  readonly id: string;
  analyze(text: string): AnalyzedText;
}

/** Settings of the built-in analyzers; plain data so a persisted index can rebuild its analyzer. */
export type AnalyzerOptions =
  | {
      kind: "standard";
      /** English Porter stemming (the `stemmer` package). Default true. */
      stem?: boolean;
      /** Drop Lucene's English stop words. Default true. */
      stopWords?: boolean;
    }
  | {
      /** Python rank_bm25 / the seed: `re.findall(r"[a-zA-Z0-9]+", text.lower())`. */
      kind: "rank-bm25";
    };

const WORD_RUN = /[\p{L}\p{N}\p{M}]+(?:[._][\p{L}\p{N}\p{M}]+|\.?\([\p{L}\p{N}]{1,5}\))*/gu;
const PARTS = /[\p{L}\p{N}\p{M}]+/gu;
const CAMEL = /[\p{Ll}\p{N}][\p{Lu}]|[\p{Lu}][\p{Lu}][\p{Ll}]/u;
const CAMEL_SPLIT = /[\p{Lu}]?[\p{Ll}\p{M}]+|[\p{Lu}]+(?![\p{Ll}])|[\p{N}]+/gu;
const ASCII_LETTERS = /^[a-z]+$/;
const WORD_CACHE_LIMIT = 500_000;
const COMPOUND = /[._(]/;

/**
 * The default analyzer: Unicode word tokens, lowercased; section-id and identifier tokens
 * ("2.1.1.(1)", "203(a)(1)", "snake_case", "dotted.name") kept whole and also split into their parts;
 * camelCase words kept and split; optional English stop words and Porter stemming.
 */
export class StandardAnalyzer implements Analyzer {
  readonly id: string;
  private readonly stem: boolean;
  private readonly stop: boolean;
  private readonly wordCache = new Map<string, string | string[] | null>();

  constructor(options: { stem?: boolean; stopWords?: boolean } = {}) {
    this.stem = options.stem ?? true;
    this.stop = options.stopWords ?? true;
    this.id = `standard(stem=${this.stem},stop=${this.stop})`;
  }

  analyze(text: string): AnalyzedText {
    const tokens: string[] = [];
    let length = 0;
    WORD_RUN.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = WORD_RUN.exec(text)) !== null) {
      const raw = match[0];
      const before = tokens.length;
      if (raw.length > 1 && COMPOUND.test(raw)) {
        tokens.push(raw.toLowerCase().replace(/\.\(/g, "("));
        for (const part of raw.match(PARTS) ?? []) this.word(part, tokens);
      } else {
        this.word(raw, tokens);
      }
      if (tokens.length > before) length++;
    }
    return { tokens, length };
  }

  /** Appends the terms of one word (cached per surface form: stop word, camelCase parts, stem). */
  private word(raw: string, out: string[]): void {
    let cached = this.wordCache.get(raw);
    if (cached === undefined) {
      const terms: string[] = [];
      const lower = raw.toLowerCase();
      if (lower !== raw && raw.length > 2 && CAMEL.test(raw)) {
        terms.push(lower);
        for (const part of raw.match(CAMEL_SPLIT) ?? []) this.plain(part.toLowerCase(), terms);
      } else {
        this.plain(lower, terms);
      }
      cached = terms.length === 0 ? null : terms.length === 1 ? terms[0] : terms;
      if (this.wordCache.size >= WORD_CACHE_LIMIT) this.wordCache.clear();
      this.wordCache.set(raw, cached);
    }
    if (cached === null) return;
    if (typeof cached === "string") out.push(cached);
    else for (const t of cached) out.push(t);
  }

  private plain(word: string, out: string[]): void {
    if (this.stop && ENGLISH_STOP_WORDS.has(word)) return;
    out.push(this.stem && word.length >= 3 && ASCII_LETTERS.test(word) ? stemmer(word) : word);
  }
}

/** The tokenizer of the seed and of rank_bm25's reference scores: lowercase, then `[a-zA-Z0-9]+`. */
export class RankBm25Analyzer implements Analyzer {
  readonly id = "rank-bm25";

  analyze(text: string): AnalyzedText {
    const tokens = text.toLowerCase().match(/[a-zA-Z0-9]+/g) ?? [];
    return { tokens, length: tokens.length };
  }
}

/**
 * Builds a built-in analyzer from its options.
 * @throws HierdocError E_INVALID_ARGUMENT for an unknown kind.
 */
export function createAnalyzer(options: AnalyzerOptions = { kind: "standard" }): Analyzer {
  switch (options.kind) {
    case "standard":
      return new StandardAnalyzer(options);
    case "rank-bm25":
      return new RankBm25Analyzer();
    default:
      throw new HierdocError("E_INVALID_ARGUMENT", `unknown analyzer kind ${JSON.stringify((options as { kind: unknown }).kind)}`);
  }
}
