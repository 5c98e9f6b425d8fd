import type { ScoredId } from "@hierdoc/core";
import { codeTitleName, documentCodeTitle, parseCodeTitle, type CodeTitleEvidence } from "@hierdoc/definitions";
import { findSectionIds } from "@hierdoc/keyword-search";
import type { Catalog, CatalogEntry } from "./catalog.js";

/** Exact-leg score factor of a hit in a source of unknown code title when the query's title is indexed. */
const UNKNOWN_TITLE_FACTOR = 0.5;

/**
 * The code titles (US Code, CFR) a query cites: "5 U.S.C. 553" and "27 CFR 478.11" by their citation,
 * "title 5 section 553" and "section 553 of title 5" by the "title N" next to the section. Names as
 * {@link codeTitleName} writes them ("5 U.S.C.", "27 CFR"); empty when the query names no title.
 */
export function citedCodeTitles(query: string): Set<string> {
  const out = new Set<string>();
  for (const id of findSectionIds(query)) {
    const cited = id.code ? parseCodeTitle(id.code) : id.kind === "title" && /^\d+[a-z]?$/.test(id.number) ? parseCodeTitle(`title ${id.number}`) : null;
    if (cited) out.add(codeTitleName(cited));
  }
  return out;
}

/**
 * Which code title each source of the index is ("usc05.md" → "5 U.S.C."), read from the catalog (the
 * chunker's "5 U.S.C. 553" aliases or the "Title 5—" heading), and the rule that puts a cited title first
 * in exact lookups: when an index holds several titles, "5 U.S.C. 553" means title 5's § 553, not § 553 of
 * every title.
 */
export class CodeTitleScope {
  private readonly bySource = new Map<string, string>();

  constructor(private readonly catalog: Catalog) {}

  /** Re-reads every source's code title from the catalog (call after the catalog changed). */
  rebuild(): void {
    this.bySource.clear();
    this.read(this.catalog.all({ ids: false }));
  }

  /** Re-reads the code titles of some sources only (those whose chunks changed), from their catalog entries. */
  rebuildSources(sources: Iterable<string>): void {
    for (const source of sources) {
      this.bySource.delete(source);
      this.read(this.catalog.entriesOf(source));
    }
  }

  private read(entries: Iterable<CatalogEntry>): void {
    // A document's title depends only on the distinct alias lists and headings of its chunks (chunks of one
    // section repeat them, and catalog entries share equal lists): collect those once per source.
    const evidence = new Map<string, { aliases: Set<readonly string[]>; headings: Set<string> }>();
    for (const e of entries) {
      let ev = evidence.get(e.sourcePath);
      if (!ev) evidence.set(e.sourcePath, (ev = { aliases: new Set(), headings: new Set() }));
      if (e.sectionAliases.length > 0) ev.aliases.add(e.sectionAliases);
      // As documentCodeTitle reads a section: its root heading (else its title), and its id when it has no root.
      const root = e.parentChain[0];
      const heading = root ?? e.sectionTitle;
      if (heading) ev.headings.add(heading);
      if (!root && e.sectionId) ev.headings.add(e.sectionId);
    }
    for (const [sourcePath, ev] of evidence) {
      const list: CodeTitleEvidence[] = [];
      for (const aliases of ev.aliases) list.push({ sectionId: "", aliases: [...aliases] });
      for (const heading of ev.headings) list.push({ sectionId: heading });
      const title = documentCodeTitle(list);
      if (title) this.bySource.set(sourcePath, codeTitleName(title));
    }
  }

  /** Every source that is a code title, with its name: for persisting beside the catalog it was read from. */
  entries(): Array<[sourcePath: string, name: string]> {
    return [...this.bySource];
  }

  /** Takes the code titles of the sources from {@link entries} output of the same catalog (instead of {@link rebuild}). */
  load(entries: ReadonlyArray<readonly [sourcePath: string, name: string]>): void {
    this.bySource.clear();
    for (const [sourcePath, name] of entries) this.bySource.set(sourcePath, name);
  }

  /** The code title a source is ("5 U.S.C."), or undefined when it is none. */
  nameOf(sourcePath: string): string | undefined {
    return this.bySource.get(sourcePath);
  }

  /**
   * Exact-lookup hits for a query, scoped to the titles it cites: hits in a source that is another title
   * are dropped, hits in sources of unknown title rank below hits in a cited title (score halved when the
   * cited title is indexed). Hits are returned unchanged when the query cites no title.
   */
  prefer(query: string, hits: ScoredId[]): ScoredId[] {
    if (hits.length === 0 || this.bySource.size === 0) return hits;
    const cited = citedCodeTitles(query);
    if (cited.size === 0) return hits;
    const titleOf = (id: string) => {
      const source = this.catalog.get(id)?.sourcePath;
      return source === undefined ? undefined : this.bySource.get(source);
    };
    const kept = hits.map((h) => ({ hit: h, title: titleOf(h.id) })).filter((h) => h.title === undefined || cited.has(h.title));
    const inCited = kept.some((h) => h.title !== undefined);
    return kept
      .map(({ hit, title }) => (inCited && title === undefined ? { id: hit.id, score: hit.score * UNKNOWN_TITLE_FACTOR } : hit))
      .sort((a, b) => b.score - a.score);
  }
}
