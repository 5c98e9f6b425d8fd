// Reading text: the chunk's markdown-ish content as blocks, and inline annotations (query marks,
// cross-reference links, defined terms) laid over it without ever parsing document text as HTML.
import type { CrossReference, Definition } from "./api.js";
import { h, sectionHref, termSlug } from "./dom.js";

/** One block of a section's text. */
export interface Block {
  kind: "heading" | "para" | "item";
  text: string;
  level: number;
}

/** Splits content into headings, paragraphs and list items (blank lines separate paragraphs). */
export function toBlocks(content: string): Block[] {
  const out: Block[] = [];
  for (const raw of content.split(/\n{2,}/)) {
    const lines = raw.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
    if (lines.length === 0) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(lines[0]);
    if (heading) {
      out.push({ kind: "heading", level: heading[1].length, text: heading[2] });
      if (lines.length > 1) out.push({ kind: "para", level: 0, text: lines.slice(1).join(" ") });
      continue;
    }
    if (lines.every((l) => /^\s*[-*+]\s+/.test(l))) {
      for (const l of lines) out.push({ kind: "item", level: 0, text: l.replace(/^\s*[-*+]\s+/, "") });
      continue;
    }
    out.push({ kind: "para", level: 0, text: lines.join(" ") });
  }
  return out;
}

/** A range of a block's text to decorate. Earlier `priority` wins overlaps. */
export interface Annotation {
  start: number;
  end: number;
  priority: number;
  make: (text: string) => Node;
}

/** Text with annotations as DOM nodes; overlapping annotations keep the first (by priority, then position). */
export function decorate(text: string, annotations: Annotation[]): Node[] {
  const chosen: Annotation[] = [];
  for (const a of [...annotations].sort((x, y) => x.priority - y.priority || x.start - y.start || y.end - x.end)) {
    if (chosen.some((c) => a.start < c.end && c.start < a.end)) continue;
    chosen.push(a);
  }
  chosen.sort((x, y) => x.start - y.start);
  const nodes: Node[] = [];
  let at = 0;
  for (const a of chosen) {
    if (a.start > at) nodes.push(document.createTextNode(text.slice(at, a.start)));
    nodes.push(a.make(text.slice(a.start, a.end)));
    at = a.end;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

const STOP = new Set("a an and are as at be by for from in is it of on or that the this to was which with shall may not any".split(" "));
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The words of a query worth highlighting (no stop words, at least two characters). */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length > 1 && !STOP.has(w)))];
}

const SUFFIXES = ["ations", "ation", "ions", "ion", "ings", "ing", "ures", "ure", "ies", "es", "ed", "s", "e"];

/** A light stem: the word without one common English suffix, when at least four letters remain. */
export function stem(word: string): string {
  for (const suffix of SUFFIXES) if (word.endsWith(suffix) && word.length - suffix.length >= 4) return word.slice(0, -suffix.length);
  return word;
}

/** A regex matching words that start with a query term's stem ("erasure" also marks "erase", "child" "children"). */
function termsRegex(terms: string[]): RegExp | undefined {
  if (terms.length === 0) return undefined;
  const stems = [...new Set(terms.map((t) => escapeRe(stem(t))))];
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${stems.sort((a, b) => b.length - a.length).join("|")})[\\p{L}\\p{N}]*`, "giu");
}

/** `<mark>` annotations for the query's words. */
export function queryMarks(text: string, terms: string[], priority = 3): Annotation[] {
  const re = termsRegex(terms);
  if (!re) return [];
  return [...text.matchAll(re)].map((m) => ({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, priority, make: (t: string) => h("mark", {}, t) }));
}

/** Links for the cross-references whose text occurs in `text` (each distinct citing text → its first target). */
export function crossReferenceLinks(text: string, refs: CrossReference[], priority = 1): Annotation[] {
  const byText = new Map<string, CrossReference>();
  for (const r of refs) if (r.text.trim().length > 1 && !byText.has(r.text)) byText.set(r.text, r);
  if (byText.size === 0) return [];
  const re = new RegExp([...byText.keys()].sort((a, b) => b.length - a.length).map(escapeRe).join("|"), "g");
  return [...text.matchAll(re)].map((m) => {
    const ref = byText.get(m[0]) as CrossReference;
    const start = m.index ?? 0;
    const make = (t: string): Node =>
      ref.external || !ref.target_section_id
        ? h("span", { class: "xref external", title: ref.cited_document ? `cites ${ref.cited_document}` : "not in this index" }, t)
        : h("a", { class: "xref", href: sectionHref(ref.target_section_id), "data-target": ref.target_section_id, title: `Go to ${ref.target_section_id}` }, t);
    return { start, end: start + m[0].length, priority, make };
  });
}

/** A matcher for defined terms (plural-aware, case-insensitive, whole words), longest term first. */
export function termMatcher(definitions: Definition[]): { re: RegExp; byTerm: Map<string, Definition> } | undefined {
  const byTerm = new Map<string, Definition>();
  for (const d of definitions) if (!byTerm.has(d.term.toLowerCase())) byTerm.set(d.term.toLowerCase(), d);
  if (byTerm.size === 0) return undefined;
  const alts = [...byTerm.keys()].sort((a, b) => b.length - a.length).map(escapeRe);
  return { re: new RegExp(`(?<![\\p{L}\\p{N}])(${alts.join("|")})(?:s|es)?(?![\\p{L}\\p{N}])`, "giu"), byTerm };
}

/**
 * Annotations for defined terms in `text`. `seen` holds terms already marked on the page; only a term's
 * first occurrence is marked (each mark is a link, and a page full of them is hard to read and to tab through).
 */
export function termLinks(text: string, matcher: ReturnType<typeof termMatcher>, seen: Set<string>, priority = 2): Annotation[] {
  if (!matcher) return [];
  const out: Annotation[] = [];
  for (const m of text.matchAll(matcher.re)) {
    const def = matcher.byTerm.get(m[1].toLowerCase());
    if (!def || seen.has(def.term)) continue;
    seen.add(def.term);
    const start = m.index ?? 0;
    out.push({
      start,
      end: start + m[0].length,
      priority,
      make: (t) => h("a", { class: "term", href: `/terms#${termSlug(def.term)}`, "data-term": def.term, "aria-haspopup": "dialog" }, t),
    });
  }
  return out;
}

/**
 * The part of a result's content to show: the window of about `max` characters with the most query
 * words, cut at word boundaries.
 */
export function snippet(text: string, terms: string[], max = 420): string {
  const flat = text.replace(/^#{1,6}[ \t]+.*$/gm, "").replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const re = termsRegex(terms);
  let best = 0;
  if (re) {
    const hits = [...flat.matchAll(re)].map((m) => m.index ?? 0);
    let bestCount = -1;
    for (const start of hits) {
      const count = hits.filter((p) => p >= start && p < start + max).length;
      if (count > bestCount) [best, bestCount] = [Math.max(0, start - 60), count];
    }
  }
  let from = best === 0 ? 0 : flat.indexOf(" ", best) + 1;
  if (from + max > flat.length) from = Math.max(0, flat.length - max);
  let to = Math.min(flat.length, from + max);
  if (to < flat.length) to = flat.lastIndexOf(" ", to);
  return `${from > 0 ? "… " : ""}${flat.slice(from, to)}${to < flat.length ? " …" : ""}`;
}
