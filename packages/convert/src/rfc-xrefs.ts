import { flattenSections, numberRfcSections, type RfcSection } from "./rfc-numbering.js";
import { childElements, collapse, firstChild, parseXml, type XmlElement, type XmlLimits } from "./xml-tree.js";

/**
 * Reads a document that an xml2rfc reference names with `<x:source href="rfc9110.xml">`, so cross-references
 * into it get their section numbers ("Section 3.7 of [HTTP]"). `fromPath` is the path of the document being
 * converted. Return undefined when it is not available. Only applications read files: supply e.g.
 * `(href, from) => readFileSync(resolve(dirname(from), href))`, and refuse hrefs that leave the document's
 * folder (absolute paths, `..`) — the href comes from the document, which may be hostile. Sources over 64 MiB
 * are ignored.
 */
export type RfcSourceResolver = (
  href: string,
  fromPath: string,
) => Uint8Array | undefined | Promise<Uint8Array | undefined>;

const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

/** What cross-references resolve against while one RFC is rendered. */
export interface XrefContext {
  /** anchor → how a bare `<xref>` to it reads ("Section 9.3.1", "Appendix B"). */
  targets: Map<string, string>;
  /** reference anchor → label without brackets ("HTTP/1.1"). */
  labels: Map<string, string>;
  /** anchors of another document's sections (`x:has`) → the reference anchor that holds them. */
  external: Map<string, string>;
  /** reference anchor → that document's anchor → "Section 3.7" (only when its source was resolved). */
  sources: Map<string, Map<string, string>>;
}

/** Maps every section anchor (and anchors inside its body) to how a bare reference to it reads. */
export function collectTargets(sections: RfcSection[]): Map<string, string> {
  const targets = new Map<string, string>();
  for (const s of flattenSections(sections)) {
    const ref = s.number === null ? `"${s.title}"` : `${s.appendix ? "Appendix" : "Section"} ${s.number}`;
    if (s.anchor) targets.set(s.anchor, ref);
    if (!s.el) continue;
    const walk = (el: XmlElement): void => {
      for (const c of childElements(el)) {
        if (c.name === "section" || c.name === "reference" || c.name === "referencegroup") continue;
        if (c.attrs.anchor && !targets.has(c.attrs.anchor)) targets.set(c.attrs.anchor, ref);
        if (c.name === "anchor-alias" && c.attrs.value) targets.set(c.attrs.value, ref);
        walk(c);
      }
    };
    walk(s.el);
  }
  return targets;
}

function referencesOf(rfc: XmlElement): { references: XmlElement[]; display: Map<string, string> } {
  const back = firstChild(rfc, "back");
  const references: XmlElement[] = [];
  if (!back) return { references, display: new Map() };
  const display = new Map(childElements(back, "displayreference").map((d) => [d.attrs.target ?? "", d.attrs.to ?? ""]));
  const walk = (el: XmlElement): void => {
    for (const c of childElements(el)) {
      if ((c.name === "reference" || c.name === "referencegroup") && c.attrs.anchor) references.push(c);
      if (c.name === "references" || c.name === "referencegroup") walk(c);
    }
  };
  walk(back);
  return { references, display };
}

/**
 * Builds the cross-reference context of an RFC: its own section numbers, reference labels (with
 * `displayreference`), `x:has` anchors of other documents, and — when `resolve` can read an `x:source` — that
 * document's section numbers. A source that cannot be read or parsed is skipped (references then read `[HTTP]`).
 */
export async function buildXrefContext(
  rfc: XmlElement,
  sections: RfcSection[],
  fromPath: string,
  resolve: RfcSourceResolver | undefined,
  limits: XmlLimits,
): Promise<XrefContext> {
  const ctx: XrefContext = { targets: collectTargets(sections), labels: new Map(), external: new Map(), sources: new Map() };
  const { references, display } = referencesOf(rfc);
  for (const r of references) {
    const anchor = r.attrs.anchor ?? "";
    ctx.labels.set(anchor, display.get(anchor) || anchor);
    for (const src of childElements(r, "source")) {
      for (const has of childElements(src, "has")) if (has.attrs.anchor) ctx.external.set(has.attrs.anchor, anchor);
      const href = src.attrs.href;
      if (!resolve || !href || ctx.sources.has(anchor)) continue;
      try {
        const bytes = await resolve(href, fromPath);
        if (!bytes || bytes.length > MAX_SOURCE_BYTES) continue;
        const other = parseXml(href, new TextDecoder().decode(bytes), limits);
        if (other.name === "rfc") ctx.sources.set(anchor, collectTargets(numberRfcSections(other)));
      } catch {
        // an unreadable source only costs section numbers in references to it
      }
    }
  }
  return ctx;
}

function withSection(ref: string, label: string, fmt: string): string {
  const number = ref.replace(/^(Section|Appendix) /, "");
  if (fmt === "," || fmt === "comma") return `[${label}], ${ref}`;
  if (fmt === "()" || fmt === "parens") return `[${label}] (${ref})`;
  if (fmt === "number" || fmt === "bare") return number;
  if (fmt === "sec") return ref;
  return `${ref} of [${label}]`;
}

/** How an `<xref>` reads: its own text, "Section 9.3.1", "[RFC2119]", "Section 6 of [HTTP/1.1]", … */
export function xrefText(el: XmlElement, own: string, ctx: XrefContext): string {
  const target = el.attrs.target ?? "";
  const fmt = el.attrs["x:fmt"] ?? el.attrs.sectionFormat ?? "of";
  const holder = ctx.external.get(target);
  if (holder !== undefined) {
    const label = ctx.labels.get(holder) ?? holder;
    const ref = ctx.sources.get(holder)?.get(target);
    return own || (ref ? withSection(ref, label, fmt) : `[${label}]`);
  }
  const label = ctx.labels.get(target);
  if (label === undefined) {
    if (own) return own;
    const ref = ctx.targets.get(target);
    if (ref === undefined) return `[${target}]`;
    if (el.attrs.format === "counter" || el.attrs["x:fmt"] === "number") return ref.replace(/^(Section|Appendix) /, "");
    if (el.attrs.format === "none") return "";
    return ref;
  }
  const explicit = el.attrs["x:sec"] ?? el.attrs.section;
  const rel = el.attrs["x:rel"]?.startsWith("#") ? el.attrs["x:rel"].slice(1) : undefined;
  const ref = explicit ? `Section ${explicit}` : rel ? ctx.sources.get(target)?.get(rel) : undefined;
  if (own) return ref ? `${own} (${ref} of [${label}])` : own;
  if (!ref) return `[${label}]`;
  return withSection(ref, label, fmt);
}

/** Whitespace-normalised own text of an xref, rendered by `inline`. */
export function ownText(el: XmlElement, inline: (n: XmlElement["children"][number]) => string): string {
  return collapse(el.children.map(inline).join(""));
}
