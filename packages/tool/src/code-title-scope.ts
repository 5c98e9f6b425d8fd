import type { ScoredId } from "@hierdoc/core";
import { codeTitleName, documentCodeTitle, parseCodeTitle, type CodeTitleEvidence } from "@hierdoc/definitions";
import { findSectionIds } from "@hierdoc/keyword-search";
import type { Catalog } from "./catalog.js";

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
    const evidence = new Map<string, CodeTitleEvidence[]>();
    for (const e of this.catalog.all()) {
      const list = evidence.get(e.sourcePath) ?? [];
      list.push({ sectionId: e.sectionId, aliases: e.sectionAliases, title: e.sectionTitle, parentChain: e.parentChain });
      evidence.set(e.sourcePath, list);
    }
    for (const [sourcePath, list] of evidence) {
      const title = documentCodeTitle(list);
      if (title) this.bySource.set(sourcePath, codeTitleName(title));
    }
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
