import type { CrossReference } from "@hierdoc/core";
import { HierdocError, StringTable } from "@hierdoc/core";
import { codeTitleName, documentCodeTitle, parseCodeTitle } from "./code-title.js";
import { FlatResolverTargets, type ResolverChunkList, type SectionResolverState } from "./resolver-state.js";

/** One section (or finer unit) of the corpus a reference can point to. */
export interface ResolverEntry {
  sourcePath: string;
  sectionId: string;
  aliases: string[];
  /** The chunk where the section starts. */
  chunkId: string;
  /**
   * Names other documents cite this entry's source by ("5 U.S.C.", "27 CFR", "RFC 9110"); the names of a
   * source are the union over its entries. When no entry of a source gives any, a US Code or CFR title is
   * recognised from the section aliases the chunker writes ("5 U.S.C. 553").
   */
  documentNames?: string[];
}

interface Key {
  type: string | null;
  bare: string;
}

interface Target {
  entry: ResolverEntry;
  type: string | null;
  /** Position of the entry in the resolver's entry list (for {@link SectionResolver.exportState}). */
  index: number;
}

const TYPED = /^(article|art\.?|chapter|part|appendix|app\.?|annex|schedule|title)(?=[\dA-Zivxlc(])/i;
const UNTYPED = /^(?:§+|sections?|secs?\.?|rules?|r\.|regulations?|clauses?)/i;
const TYPE_NAMES: Record<string, string> = { "art.": "article", art: "article", "app.": "appendix", app: "appendix" };

/** Leading container components of compound unit ids ("Part 6.Chapter 2.50.(3)", "APP4.A4.3.6"). */
const CONTAINER_PREFIX = /^(?:(?:part|chapter|app|appendix|schedule|annex)\s?[\dA-Z]+\.\s?)+(?=\S)/i;

/** Unit types an untyped citation ("Section B.1", "Rule 2") may still land on. */
const LOOSE_TYPES = new Set(["appendix", "annex", "schedule"]);

/** Normalises a section id or citation to a type ("article", "chapter", … or null) and a bare id. */
export function sectionKey(id: string): Key {
  let s = id
    .replace(/\s+/g, "")
    .replace(/[–—]/g, "-")
    .replace(/[^()]+(?=\(|$)/g, (outside) => outside.toLowerCase());
  s = s.replace(/\.(?=\()/g, "").replace(/[.,;:]+$/, "");
  const typed = TYPED.exec(s);
  if (typed) {
    const t = typed[1];
    return { type: TYPE_NAMES[t] ?? t.replace(/\.$/, ""), bare: s.slice(t.length).replace(/^\./, "") };
  }
  return { type: null, bare: s.replace(UNTYPED, "").replace(/^\./, "") };
}

/** Shorter forms of a bare id, finest first: "6(1)(a)" → "6(1)(a)", "6(1)", "6". */
function broader(bare: string): string[] {
  const out = [bare];
  let s = bare;
  while (/\([^()]*\)$/.test(s)) {
    s = s.replace(/\([^()]*\)$/, "").replace(/\.$/, "");
    if (s) out.push(s);
  }
  return out;
}

/** True when a cited document ("GEN", "HTTP/1.1", "RFC 9110") names a source file of the corpus. */
function namesSource(cited: string, sourcePath: string): boolean {
  const base = sourcePath.split(/[\\/]/).pop()?.toLowerCase() ?? "";
  const c = cited.toLowerCase().replace(/\s+/g, "");
  return c.length >= 2 && (base.startsWith(c) || base.replace(/[\s_-]+/g, "").startsWith(c));
}

function normName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, " ").trim();
}

/** The name a cited document is matched by: a code title's canonical name ("title 5" → "5 u.s.c."), else itself. */
function citedKey(cited: string): { key: string; codeTitle: boolean } {
  const t = parseCodeTitle(cited);
  return t ? { key: normName(codeTitleName(t)), codeTitle: true } : { key: normName(cited), codeTitle: false };
}

/**
 * Resolves cross-references against the sections of a corpus: same document first, by section id or alias,
 * falling back to the enclosing unit ("Article 6(1)(a)" → "Article 6(1)" → "Article 6"). Citations naming a
 * unit type (Article, Chapter, Part, Appendix, Annex, Schedule) only match sections of that type or untyped
 * ids. References naming another document resolve only into a source with that name: a code title ("section
 * 553 of title 5", "5 U.S.C. 553") only into the source that is that title (see {@link ResolverEntry.documentNames}),
 * never into a same-numbered section of another title; anything not found is marked external and keeps its
 * `citedDocument`.
 */
export class SectionResolver {
  private readonly byBare = new Map<string, Target[]>();
  /** First unit (in entry order) under an id that is not itself a section: "19.10.1" → "19.10.1.(1)". */
  private readonly firstChild = new Map<string, Target[]>();
  /** Normalised names each source is cited by. */
  private readonly names = new Map<string, Set<string>>();
  /** Entries given to the constructor (or imported): the range of {@link Target.index}. */
  private entryCount = 0;
  /** An imported state served in place (see {@link importState}). */
  private flat: FlatResolverTargets | null = null;

  /** @throws HierdocError E_INVALID_ARGUMENT when an entry has no sourcePath or sectionId. */
  constructor(entries: ResolverEntry[]) {
    this.entryCount = entries.length;
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index];
      if (!entry.sourcePath || !entry.sectionId) {
        throw new HierdocError("E_INVALID_ARGUMENT", "resolver entry needs sourcePath and sectionId", {
          details: { file: entry.sourcePath },
        });
      }
      for (const name of entry.documentNames ?? []) {
        const set = this.names.get(entry.sourcePath) ?? new Set<string>();
        set.add(citedKey(name).key);
        this.names.set(entry.sourcePath, set);
      }
      const seen = new Set<string>();
      const own = sectionKey(entry.sectionId).type;
      const tails = [entry.sectionId, ...entry.aliases]
        .map((id) => [id, id.replace(CONTAINER_PREFIX, "")])
        .filter(([id, tail]) => tail && tail !== id)
        .map(([, tail]) => tail);
      const ids = [entry.sectionId, ...entry.aliases, ...tails];
      ids.forEach((id, i) => {
        const key = sectionKey(id);
        if (i <= entry.aliases.length) key.type ??= own;
        if (!key.bare || seen.has(`${key.type}:${key.bare}`)) return;
        seen.add(`${key.type}:${key.bare}`);
        const list = this.byBare.get(key.bare) ?? [];
        list.push({ entry, type: key.type, index });
        this.byBare.set(key.bare, list);
        for (let cut = key.bare.lastIndexOf("("); cut > 0; cut = key.bare.lastIndexOf("(", cut - 1)) {
          const parent = key.bare.slice(0, cut);
          const children = this.firstChild.get(parent) ?? [];
          if (!children.some((c) => c.entry.sourcePath === entry.sourcePath)) children.push({ entry, type: key.type, index });
          this.firstChild.set(parent, children);
        }
      });
    }
    this.inferCodeTitles(entries);
  }

  /**
   * The built resolver as flat data, each target's chunk named by its position in the caller's chunk list
   * (so chunk ids are stored once, by the caller). {@link importState} rebuilds it without normalising an id.
   * Returns null when a target's chunk has no position.
   */
  exportState(positionOf: (chunkId: string) => number | undefined): SectionResolverState | null {
    if (this.flat) return this.flat.exportState(positionOf);
    const strings = new StringTable();
    const key = (k: string | null) => strings.intern(k);
    /** Exported number of each entry (by its index), -1 until first referenced. */
    const entryIndex = new Int32Array(this.entryCount).fill(-1);
    let exported = 0;
    const table: number[] = [];
    const lists: number[] = [];
    let missing = false;
    const putMap = (map: Map<string, Target[]>) => {
      lists.push(map.size);
      for (const [bare, targets] of map) {
        lists.push(key(bare), targets.length);
        for (const t of targets) {
          let e = entryIndex[t.index];
          if (e === -1) {
            const pos = positionOf(t.entry.chunkId);
            if (pos === undefined) missing = true;
            entryIndex[t.index] = e = exported++;
            table.push(key(t.entry.sourcePath), key(t.entry.sectionId), pos ?? -1);
          }
          lists.push(e, key(t.type));
        }
      }
    };
    putMap(this.byBare);
    putMap(this.firstChild);
    lists.push(this.names.size);
    for (const [source, names] of this.names) {
      lists.push(key(source), names.size);
      for (const n of names) lists.push(key(n));
    }
    if (missing) return null;
    const data = new Int32Array(1 + table.length + lists.length);
    data[0] = exported;
    data.set(table, 1);
    data.set(lists, 1 + table.length);
    return { keys: strings.strings, data };
  }

  /**
   * Serves {@link exportState} output in place: targets are read from the flat data when a reference
   * resolves to them, chunk ids from `chunks` (the same chunk list by position, or a function giving the id
   * at a position: every entry's chunk is then checked now). Resolves exactly as the exported resolver.
   * @throws HierdocError E_INDEX_CORRUPT when the state is inconsistent.
   */
  static importState(state: SectionResolverState, chunks: ResolverChunkList | ((position: number) => string | undefined)): SectionResolver {
    const resolver = new SectionResolver([]);
    resolver.flat = new FlatResolverTargets(state, chunks);
    return resolver;
  }

  /** The names a source is cited by (normalised, lower case): given, or its recognised code title. */
  namesOf(sourcePath: string): string[] {
    return [...((this.flat ? this.flat.names : this.names).get(sourcePath) ?? [])];
  }

  private inferCodeTitles(entries: ResolverEntry[]): void {
    const bySource = new Map<string, ResolverEntry[]>();
    for (const e of entries) {
      if (this.names.has(e.sourcePath)) continue;
      const list = bySource.get(e.sourcePath) ?? [];
      list.push(e);
      bySource.set(e.sourcePath, list);
    }
    for (const [sourcePath, list] of bySource) {
      const title = documentCodeTitle(list);
      if (title) this.names.set(sourcePath, new Set([normName(codeTitleName(title))]));
    }
  }

  /**
   * Resolves one reference made in `fromSourcePath`. Returns a new reference with `targetSectionId` set to
   * the corpus' own id of the target and `targetChunkId` to its chunk, or `external: true` (and
   * `targetChunkId: null`) when the target is not in the corpus. `skipSource`, when given, rejects every target
   * in the sources it returns true for (as if their entries were not in the resolver).
   */
  resolve(ref: CrossReference, fromSourcePath: string, skipSource?: (sourcePath: string) => boolean): CrossReference {
    const target = ref.targetSectionId;
    if (target) {
      const key = sectionKey(target);
      const citedDoc = ref.external ? ref.citedDocument : undefined;
      const cited = citedDoc ? citedKey(citedDoc) : null;
      const names = this.flat ? this.flat.names : this.names;
      const accept = (src: string) =>
        !skipSource?.(src) &&
        (!ref.external
          ? src === fromSourcePath
          : !!citedDoc && !!cited && (names.get(src)?.has(cited.key) === true || (!cited.codeTitle && namesSource(citedDoc, src))));
      const fitsType = (type: string | null) => (key.type === null ? type === null || LOOSE_TYPES.has(type) : type === null || type === key.type);
      const fits = (c: { entry: ResolverEntry; type: string | null }) => accept(c.entry.sourcePath) && fitsType(c.type);
      const flat = this.flat;
      for (const bare of broader(key.bare)) {
        if (flat) {
          const hit = flat.find(bare, false, (src, type) => accept(src) && fitsType(type)) ?? flat.find(bare, true, (src, type) => accept(src) && fitsType(type));
          if (hit) return { ...ref, targetSectionId: hit.sectionId, targetChunkId: hit.chunkId(), external: false };
          continue;
        }
        const hit = (this.byBare.get(bare) ?? []).find(fits) ?? (this.firstChild.get(bare) ?? []).find(fits);
        if (hit) {
          return { ...ref, targetSectionId: hit.entry.sectionId, targetChunkId: hit.entry.chunkId, external: false };
        }
      }
    }
    return { ...ref, targetChunkId: null, external: true };
  }
}
