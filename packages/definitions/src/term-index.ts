import type { DefinitionEntry } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { normalizeTerm, singularKey, wordKey, wordTokens, type WordToken } from "./normalize.js";

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Terms (by lookup key) that end at this node. */
  terms: string[];
}

interface TermInfo {
  key: string;
  /** Original-case words when the term must match case-sensitively ("Authorised Person", "CFR"). */
  caseWords: string[] | null;
  /** The term as first defined, for the source-convention check. */
  term: string;
  entries: DefinitionEntry[];
  /** Ids of {@link entries} (a term defined in thousands of sources is checked for duplicates in O(1)). */
  ids: Set<string>;
}

function newNode(): TrieNode {
  return { children: new Map(), terms: [] };
}

/** The singular word keys of a term: the path it takes in the trie and its lookup key. */
function termWords(term: string): WordToken[] {
  return wordTokens(term.normalize("NFKC").replace(/[‐‑‒–—―]/g, "-"));
}

/** A term keeps its case when any letter after the first is upper-case (acronyms, capitalised phrases). */
function caseSensitiveWords(term: string, words: WordToken[]): string[] | null {
  return /\p{Lu}/u.test(term.slice(1)) ? words.map((w) => w.raw) : null;
}

/**
 * Sources that mark defined terms by capitalising every word ("Authorised Person", "Client Money": the
 * ADGM glossary) make their one-word capitalised terms ("Person") case-sensitive too. A source follows
 * that convention when most of its multi-word terms are in Title Case.
 */
function titleCaseSources(infos: Iterable<TermInfo>): Set<string> {
  const stats = new Map<string, { multi: number; title: number }>();
  for (const info of infos) {
    for (const e of info.entries) {
      const words = e.term.split(/\s+/).filter((w) => /^\p{L}/u.test(w) && w.length > 3);
      if (words.length < 2) continue;
      const st = stats.get(e.sourcePath) ?? { multi: 0, title: 0 };
      st.multi++;
      if (words.every((w) => /^\p{Lu}/u.test(w))) st.title++;
      stats.set(e.sourcePath, st);
    }
  }
  return new Set([...stats].filter(([, st]) => st.multi >= 5 && st.title / st.multi >= 0.7).map(([src]) => src));
}

function sameCase(written: string, defined: string): boolean {
  const a = singularKey(written);
  const b = singularKey(defined);
  return a[0] === b[0] && a.toLowerCase() === b.toLowerCase();
}

/** Whether the words of `raws` from `from` are written as a case-sensitive term requires (any case when it does not). */
function caseMatches(info: TermInfo, raws: readonly string[], from: number): boolean {
  if (!info.caseWords) return true;
  return info.caseWords.every((w, k) => sameCase(raws[from + k], w));
}

/** Texts whose matches {@link TermIndex.termsUsedIn} remembers (a few MB of chunk text). */
const MEMO_LIMIT = 4096;

/** The matcher's word class `[\p{L}\p{N}]` (see `WORD` in normalize.ts), for one code point. */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** {@link WORD_CHAR} per BMP code point, learnt on first sight: 0 unknown, 1 word, 2 not. */
const bmpWordChar = new Uint8Array(65_536);

/** Whether code point `cp` is a letter or a digit (ASCII decided inline, others once per code point). */
function isWordChar(cp: number): boolean {
  if (cp < 128) return (cp >= 97 && cp <= 122) || (cp >= 65 && cp <= 90) || (cp >= 48 && cp <= 57);
  if (cp > 0xffff) return WORD_CHAR.test(String.fromCodePoint(cp));
  let c = bmpWordChar[cp];
  if (c === 0) bmpWordChar[cp] = c = WORD_CHAR.test(String.fromCharCode(cp)) ? 1 : 2;
  return c === 1;
}

/** Whether char code `c` joins two runs of letters into one word (`-`, `_`, `'`, `’`). */
function isJoiner(c: number): boolean {
  return c === 45 || c === 95 || c === 39 || c === 0x2019;
}

/**
 * The words of `text` as written (`raws`) and as matching keys (`keys`), the same words as `wordKeys` of
 * normalize.ts finds with `/[\p{L}\p{N}]+(?:[-_'’][\p{L}\p{N}]+)*\/gu`, scanned by char code instead of
 * a regular expression (no match object per word). Fills the arrays from index 0; returns the word count.
 */
export function scanWords(text: string, raws: string[], keys: string[]): number {
  const n = text.length;
  let count = 0;
  let p = 0;
  while (p < n) {
    let cp = text.codePointAt(p) as number;
    if (!isWordChar(cp)) {
      p += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = p;
    p += cp > 0xffff ? 2 : 1;
    for (;;) {
      while (p < n) {
        cp = text.codePointAt(p) as number;
        if (!isWordChar(cp)) break;
        p += cp > 0xffff ? 2 : 1;
      }
      if (p + 1 >= n || !isJoiner(text.charCodeAt(p))) break;
      const next = text.codePointAt(p + 1) as number;
      if (!isWordChar(next)) break;
      p += next > 0xffff ? 3 : 2;
    }
    const raw = text.slice(start, p);
    raws[count] = raw;
    keys[count] = wordKey(raw);
    count++;
  }
  return count;
}

/**
 * Defined-term lookup and matching for one corpus. `termsUsedIn` compiles every term into one word trie
 * (plural-aware, word-boundary, longest match first) so a text is scanned once whatever the number of terms.
 * Terms with capitals after the first letter ("Authorised Person", "ADGM") match only with that case;
 * other terms match in any case.
 */
export class TermIndex {
  private readonly byKey = new Map<string, TermInfo>();
  private root: TrieNode = newNode();
  private dirty = false;
  /** Matches of recent texts (search results and rerank candidates recur across queries); cleared on change. */
  private readonly memo = new Map<string, Map<string, DefinitionEntry[]>>();
  private memoSize = 0;
  /**
   * The terms (in order of first use) of recent texts whatever their source: the same text in another
   * source (a copy, boilerplate) is scanned once. Cleared on change.
   */
  private readonly textMemo = new Map<string, TermInfo[]>();
  /** Scratch word lists of {@link scanWords} (grown, never shrunk: no arrays per text). */
  private readonly raws: string[] = [];
  private readonly keys: string[] = [];

  /** Builds the index from definitions (e.g. those stored on chunk records). */
  constructor(entries: readonly DefinitionEntry[] = []) {
    this.addAll(entries);
  }

  /**
   * Adds definitions. A term defined in several places keeps all its definitions.
   * @throws HierdocError E_INVALID_ARGUMENT when an entry has an empty term.
   */
  add(...entries: DefinitionEntry[]): void {
    this.addAll(entries);
  }

  /**
   * Adds a list of definitions of any length ({@link add} spreads its arguments, which overflows the call
   * stack past ~100k entries: a 1M-chunk index has that many).
   * @throws HierdocError E_INVALID_ARGUMENT when an entry has an empty term.
   */
  addAll(entries: readonly DefinitionEntry[]): void {
    /** Words of each distinct term (many sources define the same terms). */
    const known = new Map<string, WordToken[]>();
    for (const entry of entries) {
      let words = known.get(entry.term);
      if (!words) known.set(entry.term, (words = termWords(entry.term)));
      if (words.length === 0) {
        throw new HierdocError("E_INVALID_ARGUMENT", `definition ${entry.id} has an empty term`, {
          details: { file: entry.sourcePath },
        });
      }
      const key = words.map((w) => w.key).join(" ");
      let info = this.byKey.get(key);
      if (!info) {
        info = { key, caseWords: caseSensitiveWords(entry.term, words), term: entry.term, entries: [], ids: new Set() };
        this.byKey.set(key, info);
      }
      if (!info.ids.has(entry.id)) {
        info.ids.add(entry.id);
        info.entries.push(entry);
      }
    }
    this.dirty = true;
  }

  /** Removes every definition that came from `sourcePath` (when a file is re-ingested or deleted). */
  removeBySource(sourcePath: string): number {
    let removed = 0;
    for (const [key, info] of this.byKey) {
      const kept = info.entries.filter((e) => e.sourcePath !== sourcePath);
      removed += info.entries.length - kept.length;
      if (kept.length === 0) this.byKey.delete(key);
      else if (kept.length < info.entries.length) {
        info.entries = kept;
        info.ids = new Set(kept.map((e) => e.id));
      }
    }
    if (removed > 0) this.dirty = true;
    return removed;
  }

  /** Definitions of a term as a user types it (any case, singular or plural); empty when undefined. */
  define(term: string): DefinitionEntry[] {
    const key = termWords(normalizeTerm(term))
      .map((w) => w.key)
      .join(" ");
    return [...(this.byKey.get(key)?.entries ?? [])];
  }

  /** Every definition, sorted by normalized term then source. */
  list(): DefinitionEntry[] {
    return [...this.byKey.values()]
      .flatMap((i) => i.entries)
      .sort(
        (a, b) =>
          a.termNormalized.localeCompare(b.termNormalized) ||
          a.sourcePath.localeCompare(b.sourcePath) ||
          a.id.localeCompare(b.id),
      );
  }

  /** Number of distinct terms. */
  get size(): number {
    return this.byKey.size;
  }

  /**
   * The definitions of the defined terms that `text` uses, in order of first use, each term once.
   * Matching is by whole words, plural-aware, longest term first at each position. When `sourcePath` is
   * given and a term is defined in that source, only that source's definitions are returned for it.
   */
  termsUsedIn(text: string, sourcePath?: string): DefinitionEntry[] {
    const root = this.trie();
    let bySource = this.memo.get(sourcePath ?? "");
    const known = bySource?.get(text);
    if (known) return known.slice();
    const out = this.match(root, text, sourcePath);
    if (this.memoSize >= MEMO_LIMIT) {
      this.memo.clear();
      this.memoSize = 0;
      bySource = undefined;
    }
    if (!bySource) this.memo.set(sourcePath ?? "", (bySource = new Map()));
    bySource.set(text, out);
    this.memoSize++;
    return out.slice();
  }

  private match(root: TrieNode, text: string, sourcePath: string | undefined): DefinitionEntry[] {
    let used = this.textMemo.get(text);
    if (used === undefined) {
      used = this.scan(root, text);
      if (this.textMemo.size >= MEMO_LIMIT) this.textMemo.clear();
      this.textMemo.set(text, used);
    }
    const out: DefinitionEntry[] = [];
    for (const info of used) {
      const own = sourcePath ? info.entries.filter((e) => e.sourcePath === sourcePath) : [];
      for (const e of own.length > 0 ? own : info.entries) out.push(e);
    }
    return out;
  }

  /** The terms `text` uses, in order of first use, each once (longest match first at each word). */
  private scan(root: TrieNode, text: string): TermInfo[] {
    const { raws, keys } = this;
    const count = scanWords(text, raws, keys);
    const out: TermInfo[] = [];
    let i = 0;
    while (i < count) {
      let node: TrieNode | undefined = root;
      let best: TermInfo | null = null;
      let bestNext = 0;
      for (let j = i; j < count && node; j++) {
        node = node.children.get(keys[j]);
        if (!node) break;
        for (const key of node.terms) {
          const info = this.byKey.get(key);
          if (!info || !caseMatches(info, raws, i)) continue;
          if (!best || j + 1 > bestNext) {
            best = info;
            bestNext = j + 1;
          }
        }
      }
      if (best) {
        if (!out.includes(best)) out.push(best);
        i = bestNext;
      } else i++;
    }
    return out;
  }

  private trie(): TrieNode {
    if (!this.dirty) return this.root;
    const root = newNode();
    const titleCase = titleCaseSources(this.byKey.values());
    for (const info of this.byKey.values()) {
      const conventional = /^\p{Lu}/u.test(info.term) && info.entries.every((e) => titleCase.has(e.sourcePath));
      info.caseWords = caseSensitiveWords(info.term, termWords(info.term)) ?? (conventional ? termWords(info.term).map((w) => w.raw) : null);
      let node = root;
      for (const word of info.key.split(" ")) {
        let child = node.children.get(word);
        if (!child) {
          child = newNode();
          node.children.set(word, child);
        }
        node = child;
      }
      node.terms.push(info.key);
    }
    this.root = root;
    this.dirty = false;
    this.memo.clear();
    this.memoSize = 0;
    this.textMemo.clear();
    return root;
  }
}
