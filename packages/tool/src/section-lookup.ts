import type { CatalogEntry } from "./catalog.js";

/** One section a section id can name: its chunks (in order), where it sits, and an id that names only it. */
export interface SectionMatch {
  sourcePath: string;
  sectionId: string;
  parentChain: string[];
  /** Unique among the matches of one lookup: "CHAPTER III › Section 1" (the id alone when it is not ambiguous). */
  qualifiedId: string;
  chunkIds: string[];
}

/** Separators of a qualified id: "Chapter III › Section 1", "Chapter III > Section 1". */
const QUALIFIER = /\s*(?:›|»|\s>\s)\s*/;

/** Splits "Chapter III › Section 1" into the qualifiers ["Chapter III"] and the id "Section 1". */
export function splitQualifiedId(id: string): { qualifiers: string[]; id: string } {
  const parts = id.split(QUALIFIER).map((p) => p.trim()).filter(Boolean);
  return { qualifiers: parts.slice(0, -1), id: parts[parts.length - 1] ?? id.trim() };
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

/** The short name of a parent title: its part before " — ", " – ", " - " or ": " ("CHAPTER III — Rights …" → "CHAPTER III"). */
export function shortTitle(title: string): string {
  return title.split(/\s+[—–-]\s+|:\s+/)[0].trim();
}

/** True when every qualifier names a parent of `chain`, in order (by short name or whole title, any case). */
export function chainMatches(chain: string[], qualifiers: string[]): boolean {
  let at = 0;
  for (const q of qualifiers.map(norm)) {
    while (at < chain.length && norm(shortTitle(chain[at])) !== q && norm(chain[at]) !== q) at++;
    if (at === chain.length) return false;
    at++;
  }
  return true;
}

/**
 * Groups catalog entries into the distinct sections they belong to (same source, section id and parent
 * chain), in the order the entries come, and gives each a qualified id that tells it apart from the others:
 * the id alone when one section matches, else its nearest parent's short name and the id, else its whole chain (sections
 * of different files can still share it).
 */
export function groupSections(entries: CatalogEntry[]): SectionMatch[] {
  const groups = new Map<string, SectionMatch>();
  for (const e of entries) {
    const key = `${e.sourcePath}\u0000${e.sectionId}\u0000${e.parentChain.join("\u0000")}`;
    const g = groups.get(key) ?? { sourcePath: e.sourcePath, sectionId: e.sectionId, parentChain: e.parentChain, qualifiedId: e.sectionId, chunkIds: [] };
    g.chunkIds.push(e.id);
    groups.set(key, g);
  }
  const out = [...groups.values()];
  if (out.length < 2) return out;
  const near = (m: SectionMatch) => (m.parentChain.length ? `${shortTitle(m.parentChain[m.parentChain.length - 1])} › ${m.sectionId}` : m.sectionId);
  const full = (m: SectionMatch) => [...m.parentChain.map(shortTitle), m.sectionId].join(" › ");
  const count = (f: (m: SectionMatch) => string) => {
    const n = new Map<string, number>();
    for (const m of out) n.set(f(m), (n.get(f(m)) ?? 0) + 1);
    return n;
  };
  const nearCount = count(near);
  for (const m of out) {
    if (nearCount.get(near(m)) === 1) m.qualifiedId = near(m);
    else m.qualifiedId = full(m);
  }
  return out;
}
