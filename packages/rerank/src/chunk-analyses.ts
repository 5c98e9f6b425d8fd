import type { RerankCandidate } from "@hierdoc/core";
import { StemVocabulary } from "./stem-vocabulary.js";

/** Chunks (by id) and short texts (by text) analysed per cache before it starts over. */
const CACHE_LIMIT = 20_000;
/** Distinct stems numbered before the vocabulary (and every analysis holding its ids) starts over. */
const VOCABULARY_LIMIT = 1_000_000;

const EMPTY = new Int32Array(0);

/** A defined term as stems: the ids, and the stems space-joined and space-padded (`""` when it has none). */
export interface TermAnalysis {
  ids: Int32Array;
  padded: string;
}

/** The stem ids of everything a candidate's features read, analysed once per chunk. */
export interface ChunkAnalysis {
  content: string;
  ids: Int32Array;
  /** The content lower-cased, once a query names a section id. */
  lower: string | undefined;
  title: string;
  titleIds: Int32Array;
  chain: readonly string[];
  chainIds: Int32Array;
  context: string;
  contextIds: Int32Array;
  terms: readonly string[];
  termAnalyses: TermAnalysis[];
}

/**
 * A bounded cache of chunk analyses keyed by chunk id: a chunk's content, section title, parent chain,
 * context and defined terms as stem ids of one {@link StemVocabulary}. A cached part is reused only when
 * the candidate's text is the same string (re-ingested chunks are analysed anew); below the id cache
 * every text is also cached by text, so chunks sharing a text (copies, boilerplate) and titles, chains,
 * contexts and terms shared by many chunks are analysed once. Each cache starts over when full.
 */
export class ChunkAnalyses {
  private vocab = new StemVocabulary();
  private readonly chunks = new Map<string, ChunkAnalysis>();
  private readonly contents = new Map<string, Int32Array>();
  private readonly texts = new Map<string, Int32Array>();
  private readonly termsByText = new Map<string, TermAnalysis>();

  /** The vocabulary the analyses' ids belong to (replaced, with every analysis, when it grows too large). */
  get vocabulary(): StemVocabulary {
    if (this.vocab.size >= VOCABULARY_LIMIT) {
      this.vocab = new StemVocabulary();
      this.chunks.clear();
      this.contents.clear();
      this.texts.clear();
      this.termsByText.clear();
    }
    return this.vocab;
  }

  /** The analysis of a candidate's chunk, from the cache when its texts are unchanged. */
  of(c: RerankCandidate): ChunkAnalysis {
    let a = this.chunks.get(c.id);
    if (a === undefined) {
      if (this.chunks.size >= CACHE_LIMIT) this.chunks.clear();
      a = {
        content: c.content, ids: this.contentIdsOf(c.content), lower: undefined,
        title: c.sectionTitle, titleIds: this.idsOf(c.sectionTitle),
        chain: [...c.parentChain], chainIds: this.idsOf(c.parentChain.join(" ")),
        context: c.context, contextIds: this.idsOf(c.context),
        terms: [], termAnalyses: [],
      };
      this.chunks.set(c.id, a);
    } else {
      if (a.content !== c.content) {
        a.content = c.content;
        a.ids = this.contentIdsOf(c.content);
        a.lower = undefined;
      }
      if (a.title !== c.sectionTitle) {
        a.title = c.sectionTitle;
        a.titleIds = this.idsOf(c.sectionTitle);
      }
      if (!sameStrings(a.chain, c.parentChain)) {
        a.chain = [...c.parentChain];
        a.chainIds = this.idsOf(c.parentChain.join(" "));
      }
      if (a.context !== c.context) {
        a.context = c.context;
        a.contextIds = this.idsOf(c.context);
      }
    }
    const defs = c.definitions ?? [];
    if (a.terms.length !== defs.length || defs.some((d, i) => d.term !== a.terms[i])) {
      a.terms = defs.map((d) => d.term);
      a.termAnalyses = a.terms.map((t) => this.termOf(t));
    }
    return a;
  }

  /** The stem ids of a chunk's content, cached by text too: chunks with the same text (copies, boilerplate) share one analysis. */
  private contentIdsOf(text: string): Int32Array {
    return this.cachedIds(this.contents, text);
  }

  /** The stem ids of a short text, cached by text. */
  private idsOf(text: string): Int32Array {
    return text ? this.cachedIds(this.texts, text) : EMPTY;
  }

  /** `text`'s stem ids from `cache`, analysed and remembered on a miss (the cache starts over when full). */
  private cachedIds(cache: Map<string, Int32Array>, text: string): Int32Array {
    let ids = cache.get(text);
    if (ids === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      ids = this.vocab.idsOf(text);
      cache.set(text, ids);
    }
    return ids;
  }

  private termOf(term: string): TermAnalysis {
    let t = this.termsByText.get(term);
    if (t === undefined) {
      if (this.termsByText.size >= CACHE_LIMIT) this.termsByText.clear();
      const ids = this.idsOf(term);
      t = { ids, padded: ids.length === 0 ? "" : ` ${Array.from(ids, (id) => this.vocab.stemOf(id)).join(" ")} ` };
      this.termsByText.set(term, t);
    }
    return t;
  }
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
