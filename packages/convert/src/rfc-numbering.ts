import { childElements, collapse, firstChild, textOf, type XmlElement } from "./xml-tree.js";

/** A section of an xml2rfc document with its computed number and heading. */
export interface RfcSection {
  el: XmlElement | null;
  /** "9.3.1", "B.2", or null for unnumbered sections. */
  number: string | null;
  title: string;
  /** Heading as the published RFC writes it: "9.3.1. GET", "Appendix B.2. …", "Acknowledgements". */
  heading: string;
  anchor?: string;
  appendix: boolean;
  children: RfcSection[];
  /** `references` blocks and synthetic groups carry their references instead of body elements. */
  references?: XmlElement[];
}

/** Title of an xml2rfc section or references block: v3 `<name>` or v2 `title` attribute. */
export function rfcTitle(el: XmlElement): string {
  const name = firstChild(el, "name");
  return name ? textOf(name) : collapse(el.attrs.title ?? "");
}

function numbered(el: XmlElement): boolean {
  return el.attrs.numbered !== "false" && el.attrs.removeInRFC !== "true";
}

function headingOf(number: string | null, title: string, appendix: boolean): string {
  if (number === null) return title;
  return `${appendix ? "Appendix " : ""}${number}. ${title}`;
}

function sectionTree(el: XmlElement, number: string | null, appendix: boolean): RfcSection {
  const title = rfcTitle(el);
  const section: RfcSection = {
    el,
    number,
    title,
    heading: headingOf(number, title, appendix),
    anchor: el.attrs.anchor,
    appendix,
    children: [],
  };
  let n = 0;
  for (const c of childElements(el, "section")) {
    if (c.attrs.removeInRFC === "true") continue;
    const childNumber = number !== null && numbered(c) ? `${number}.${++n}` : null;
    section.children.push(sectionTree(c, childNumber, appendix));
  }
  return section;
}

function referencesSection(el: XmlElement, number: string): RfcSection {
  const inner = childElements(el, "references");
  const title = rfcTitle(el) || "References";
  const section: RfcSection = {
    el,
    number,
    title,
    heading: headingOf(number, title, false),
    anchor: el.attrs.anchor,
    appendix: false,
    children: inner.map((r, i) => referencesSection(r, `${number}.${i + 1}`)),
    references: childElements(el, "reference").concat(childElements(el, "referencegroup")),
  };
  return section;
}

function appendixLetter(i: number): string {
  let s = "";
  let n = i;
  do {
    s = String.fromCharCode(65 + (n % 26)) + s;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return s;
}

/**
 * Numbers the sections of an xml2rfc (v2 or v3) document as the published RFC does: middle sections 1, 1.1, …;
 * the references after them ("19. References" with 19.1, 19.2 when there are several blocks); back sections
 * as appendices A, B.1, …; `numbered="false"` sections unnumbered; `removeInRFC="true"` sections dropped.
 */
export function numberRfcSections(rfc: XmlElement): RfcSection[] {
  const out: RfcSection[] = [];
  const middle = firstChild(rfc, "middle");
  let n = 0;
  if (middle) {
    for (const s of childElements(middle, "section")) {
      if (s.attrs.removeInRFC === "true") continue;
      out.push(sectionTree(s, numbered(s) ? String(++n) : null, false));
    }
  }
  const back = firstChild(rfc, "back");
  if (!back) return out;
  const refs = childElements(back, "references");
  if (refs.length === 1) {
    out.push(referencesSection(refs[0], String(++n)));
  } else if (refs.length > 1) {
    const number = String(++n);
    out.push({
      el: null,
      number,
      title: "References",
      heading: headingOf(number, "References", false),
      appendix: false,
      children: refs.map((r, i) => referencesSection(r, `${number}.${i + 1}`)),
    });
  }
  let letter = 0;
  for (const s of childElements(back, "section")) {
    if (s.attrs.removeInRFC === "true") continue;
    out.push(sectionTree(s, numbered(s) ? appendixLetter(letter++) : null, true));
  }
  return out;
}

/** Every section of the tree in document order. */
export function flattenSections(sections: RfcSection[]): RfcSection[] {
  const out: RfcSection[] = [];
  const walk = (list: RfcSection[]) => {
    for (const s of list) {
      out.push(s);
      walk(s.children);
    }
  };
  walk(sections);
  return out;
}
