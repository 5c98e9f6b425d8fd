import type { Section } from "@hierdoc/core";
import { citationAliases, paragraphAliases, sectionIdFromHeading } from "./section-id.js";
import { unitTitle } from "./lines.js";

/** A heading found by a format scanner, before the hierarchy is built. */
export interface HeadingCandidate {
  start: number;
  /** End of the heading line(s). */
  headEnd: number;
  title: string;
  /** Nesting rank (smaller = outer) used when `parent` is not given. */
  rank: number;
  /** Index of the parent heading in the same list (-1 = top), when the scanner knows it. */
  parent?: number;
  /** Explicit id (and aliases) when the scanner read it from the unit label. */
  id?: string;
  aliases?: string[];
}

/** A numbered paragraph line "(a) …" found inside a section body. */
export interface Marker {
  start: number;
  label: string;
  lineEnd: number;
  /** "1." numbered paragraphs (EU style) form their own level, outside "(1)" points. */
  dotted?: boolean;
}

/** What a format scanner found. */
export interface Structure {
  headings: HeadingCandidate[];
  markers: Marker[];
  /** Ranges excluded from every chunk (front matter, RFC page headers/footers, table of contents). */
  removed: Array<[number, number]>;
  /** Ranges a chunk boundary should not cut (code blocks, tables). */
  atomic: Array<[number, number]>;
}

/** A section plus its place in the tree. */
export interface SectionNode extends Section {
  index: number;
  parent: number;
  children: number[];
  /** True for numbered paragraphs "(a)", which merge into chunks of their heading section. */
  paragraph: boolean;
  /** End of the heading line. */
  headEnd: number;
}

type MarkerKind = "lower" | "digit" | "upper" | "roman" | "uroman" | "aa" | "dotnum";

const ROMAN = /^(?:x{0,3})(?:ix|iv|v?i{0,3})$/;
const UROMAN = /^(?:X{0,3})(?:IX|IV|V?I{0,3})$/;

function kindsOf(label: string, dotted: boolean): MarkerKind[] {
  if (dotted) return ["dotnum"];
  if (/^\d/.test(label)) return ["digit"];
  const out: MarkerKind[] = [];
  if (/^[a-z]+$/.test(label)) {
    if (ROMAN.test(label)) out.push("roman");
    if (label.length === 1) out.push("lower");
    else if (/^([a-z])\1+$/.test(label)) out.push("aa");
  } else if (/^[A-Z]+$/.test(label)) {
    if (UROMAN.test(label)) out.push("uroman");
    if (label.length === 1 || /^([A-Z])\1+$/.test(label)) out.push("upper");
  }
  return out.length > 0 ? out : ["lower"];
}

function ordinal(label: string, kind: MarkerKind): number {
  if (kind === "digit" || kind === "dotnum") return parseInt(label, 10);
  if (kind === "roman" || kind === "uroman") {
    const v: Record<string, number> = { i: 1, v: 5, x: 10 };
    let n = 0;
    const s = label.toLowerCase();
    for (let i = 0; i < s.length; i++) {
      const a = v[s[i]] ?? 0;
      const b = v[s[i + 1]] ?? 0;
      n += a < b ? -a : a;
    }
    return n;
  }
  return (label.toLowerCase().charCodeAt(0) - 96) + 26 * (label.length - 1);
}

interface Level {
  kind: MarkerKind;
  last: number;
  node: number;
}

function pickKind(label: string, dotted: boolean, levels: Level[]): { kind: MarkerKind; depth: number } {
  const kinds = kindsOf(label, dotted);
  for (const kind of kinds) {
    for (let d = levels.length - 1; d >= 0; d--) {
      if (levels[d].kind === kind && ordinal(label, kind) === levels[d].last + 1) return { kind, depth: d };
    }
  }
  for (const kind of kinds) {
    if (ordinal(label, kind) === 1) return { kind, depth: levels.length };
  }
  for (const kind of kinds) {
    for (let d = levels.length - 1; d >= 0; d--) if (levels[d].kind === kind) return { kind, depth: d };
  }
  return { kind: kinds[0], depth: levels.length };
}

/**
 * Builds the section tree from headings and paragraph markers: parent chains, ids and `[start, end)`
 * ranges (heading included, up to the next heading that is not a descendant).
 */
export function buildSections(text: string, structure: Structure, citationStyle: "usc" | "cfr"): SectionNode[] {
  const textEnd = text.length;
  const { headings, markers } = structure;
  const nodes: SectionNode[] = [];
  const headingNode: number[] = [];
  let open: number[] = [];
  const close = (until: number, at: number): void => {
    while (open.length > until) nodes[open.pop()!].end = at;
  };
  const push = (node: Omit<SectionNode, "index" | "children" | "end" | "level" | "parentChain" | "parentIds">): number => {
    const index = nodes.length;
    const parentNode = node.parent >= 0 ? nodes[node.parent] : undefined;
    const full: SectionNode = {
      sectionId: node.sectionId,
      aliases: node.aliases,
      title: node.title,
      level: parentNode ? parentNode.level + 1 : 1,
      parentChain: parentNode ? parentNode.parentChain.concat(parentNode.title) : [],
      parentIds: parentNode ? parentNode.parentIds.concat(parentNode.sectionId) : [],
      start: node.start,
      end: textEnd,
      index,
      parent: node.parent,
      children: [],
      paragraph: node.paragraph,
      headEnd: node.headEnd,
    };
    nodes.push(full);
    if (parentNode) parentNode.children.push(index);
    open.push(index);
    return index;
  };
  let levels: Level[] = [];
  let mi = 0;
  const rankOf = new Map<number, number>();
  const addMarkersBefore = (limit: number): void => {
    while (mi < markers.length && markers[mi].start < limit) {
      const mk = markers[mi++];
      const owner = headingNode.length > 0 ? headingNode[headingNode.length - 1] : -1;
      if (owner < 0 || mk.start < nodes[owner].headEnd) continue;
      const { kind, depth } = pickKind(mk.label, mk.dotted === true, levels);
      levels = levels.slice(0, depth);
      const parent = depth === 0 ? owner : levels[depth - 1].node;
      const ownerPos = open.indexOf(parent);
      close(ownerPos + 1, mk.start);
      const path = levels.map((l) => `(${labelOf(nodes[l.node].sectionId)})`).join("") + `(${mk.label})`;
      const base = nodes[owner];
      const id = base.sectionId + path;
      const index = push({
        sectionId: id,
        aliases: paragraphAliases(base.sectionId, base.aliases, path),
        title: "",
        parent,
        paragraph: true,
        headEnd: mk.lineEnd,
        start: mk.start,
      });
      levels.push({ kind, last: ordinal(mk.label, kind), node: index });
      nodes[index].title = paragraphTitle(text, mk);
    }
  };
  for (let h = 0; h < headings.length; h++) {
    const cand = headings[h];
    addMarkersBefore(cand.start);
    levels = [];
    let parent = -1;
    if (cand.parent !== undefined) {
      parent = cand.parent >= 0 ? headingNode[cand.parent] : -1;
    } else {
      for (let k = open.length - 1; k >= 0; k--) {
        const r = rankOf.get(open[k]);
        if (r !== undefined && r < cand.rank) {
          parent = open[k];
          break;
        }
      }
    }
    close(parent >= 0 ? open.indexOf(parent) + 1 : 0, cand.start);
    const parsed = cand.id !== undefined ? { id: cand.id, aliases: cand.aliases ?? [] } : sectionIdFromHeading(cand.title);
    const id = parsed?.id ?? cand.title;
    const ancestors = parent >= 0 ? [...nodes[parent].parentIds, nodes[parent].sectionId] : [];
    const aliases = parsed ? [...parsed.aliases, ...citationAliases(id, ancestors, citationStyle === "cfr")] : [];
    const index = push({ sectionId: id, aliases, title: cand.title, parent, paragraph: false, headEnd: cand.headEnd, start: cand.start });
    headingNode.push(index);
    rankOf.set(index, cand.rank);
  }
  addMarkersBefore(Number.POSITIVE_INFINITY);
  close(0, textEnd);
  open = [];
  return nodes;
}

function labelOf(id: string): string {
  const m = /\(([^()]*)\)$/.exec(id);
  return m ? m[1] : id;
}

function paragraphTitle(text: string, mk: Marker): string {
  const line = text.slice(mk.start, Math.min(mk.lineEnd, mk.start + 400));
  const dash = /^(\([^)]*\)\s*[^—.]{1,100}?)(\.—|—|\.\s)/.exec(line);
  return unitTitle(dash ? dash[1] + (dash[2].startsWith(".") ? "." : "") : line);
}
