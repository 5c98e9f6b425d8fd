// The section view: the whole section in its document's outline, cross-references as links, defined
// terms with their definitions, the sections that cite this one, and the neighbours in the outline.
import { api, ApiError, type Chunk, type Outline, type OutlineSection, type Refs } from "./api.js";
import { h, mount, notice, sectionHref } from "./dom.js";
import { crossReferenceLinks, decorate, queryMarks, queryTerms, termLinks, termMatcher, toBlocks, type Block } from "./text.js";

/** Parses "Article 6(1)(a)" into the section part and its unit path ["1", "a"]. */
function unitPath(requested: string, sectionId: string): string[] {
  if (!requested.startsWith(sectionId)) return [];
  return [...requested.slice(sectionId.length).matchAll(/\(([^)]+)\)/g)].map((m) => m[1]);
}

/** Index of the block that starts the unit ("1." then "(a)" after it), or -1. */
function findUnit(blocks: Block[], path: string[]): number {
  let at = -1;
  for (const part of path) {
    const re = new RegExp(`^(?:${part.replace(/[^\w]/g, "")}\\.|\\(${part.replace(/[^\w]/g, "")}\\))\\s`);
    const next = blocks.findIndex((b, i) => i > at && re.test(b.text));
    if (next < 0) break;
    at = next;
  }
  return at;
}

function breadcrumb(outline: Outline | undefined, chunk: Chunk): HTMLElement {
  const chain = chunk.parent_chain;
  return h(
    "nav",
    { class: "crumbs", "aria-label": "Breadcrumb" },
    h("ol", {}, chain.map((c) => h("li", {}, c)), chain.length === 0 && outline ? h("li", {}, outline.title) : null, h("li", { "aria-current": "page" }, chunk.section_id)),
  );
}

function outlineNav(outline: Outline, current: string): HTMLElement {
  const groups = new Map<string, OutlineSection[]>();
  for (const s of outline.sections) {
    const key = s.parent_chain[1] ?? "";
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const link = (s: OutlineSection): HTMLElement =>
    h("li", { class: `ol-item depth-${Math.min(s.parent_chain.length, 4)}` }, h("a", { href: sectionHref(s.section_id), ...(s.section_id === current ? { "aria-current": "page" } : {}) }, s.section_title || s.section_id));
  const items: HTMLElement[] = [];
  for (const [group, sections] of groups) {
    if (!group) {
      items.push(...sections.map(link));
      continue;
    }
    const inner: HTMLElement[] = [];
    let sub = "";
    for (const s of sections) {
      const label = s.parent_chain.slice(2).join(" › ");
      if (label && label !== sub && !sections.some((x) => x.section_title === label)) inner.push(h("li", { class: "ol-sub" }, label));
      sub = label;
      inner.push(link(s));
    }
    const open = sections.some((s) => s.section_id === current);
    items.push(h("li", { class: "ol-group" }, h("details", { open }, h("summary", {}, group), h("ul", {}, inner))));
  }
  return h("nav", { class: "outline", "aria-label": "Document outline" }, h("p", { class: "ol-title" }, outline.title), h("ul", {}, items));
}

function neighbours(outline: Outline, current: string): HTMLElement | null {
  const i = outline.sections.findIndex((s) => s.section_id === current);
  if (i < 0) return null;
  const prev = outline.sections[i - 1];
  const next = outline.sections[i + 1];
  return h(
    "nav",
    { class: "pager", "aria-label": "Previous and next section" },
    prev ? h("a", { class: "prev", href: sectionHref(prev.section_id), rel: "prev" }, h("span", { class: "muted" }, "Previous"), h("span", {}, prev.section_title || prev.section_id)) : h("span", {}),
    next ? h("a", { class: "next", href: sectionHref(next.section_id), rel: "next" }, h("span", { class: "muted" }, "Next"), h("span", {}, next.section_title || next.section_id)) : null,
  );
}

function references(refs: Refs | undefined): HTMLElement | null {
  if (!refs) return null;
  const out = [...new Map(refs.outgoing.filter((x) => !x.external && x.target_section_id).map((x) => [x.target_section_id as string, x])).values()];
  const inc = [...new Map(refs.incoming.map((x) => [`${x.from_section_id}\u0000${x.text}`, x])).values()];
  return h(
    "aside",
    { class: "refs", "aria-label": "References" },
    h("section", {}, h("h2", {}, "Cited by"), inc.length === 0 ? h("p", { class: "muted" }, "No other section cites this one.") : h("ul", { class: "incoming" }, inc.map((x) => h("li", {}, h("a", { href: sectionHref(x.from_section_id) }, x.from_section_id), h("span", { class: "muted" }, ` — “${x.text}”`))))),
    out.length > 0 ? h("section", {}, h("h2", {}, "Refers to"), h("ul", { class: "outgoing" }, out.map((x) => h("li", {}, h("a", { href: sectionHref(x.target_section_id as string) }, x.target_section_id as string), x.text !== x.target_section_id ? h("span", { class: "muted" }, ` — “${x.text}”`) : null)))) : null,
  );
}

/** A "Loading references…" panel (`aria-busy`) replaced by the references once `refs` settles. */
function pendingReferences(refs: Promise<Refs | undefined>): HTMLElement {
  const panel = h("aside", { class: "refs", "aria-label": "References", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading references…"));
  void refs.then((r) => panel.replaceWith(references(r) ?? h("aside", { class: "refs", "aria-label": "References" }, h("p", { class: "muted" }, "The references of this section cannot be loaded right now."))));
  return panel;
}

/**
 * Shows section `id` (a section id, alias or unit id such as "Article 6(1)(a)") in `main`, with the words of
 * `query` marked and, when `at` names one of its chunks after the first, opened at that chunk.
 */
export async function renderSection(main: HTMLElement, id: string, query: string, at = ""): Promise<void> {
  mount(main, notice(`Loading ${id}…`));
  let chunks: Chunk[];
  try {
    chunks = (await api.section(id)).chunks;
  } catch (err) {
    mount(main, h("h1", { tabindex: "-1" }, id), notice(err instanceof ApiError && err.status === 404 ? `There is no section “${id}” in this index.` : "The section cannot be loaded.", "alert"));
    return;
  }
  const first = chunks[0];
  // The citing sections can take long on a large index (the server caches them once computed): the section
  // is shown without waiting for them, and its references panel fills in when they arrive.
  const refs = api.refs(first.section_id).catch(() => undefined);
  const [outline, defs] = await Promise.all([api.outline(first.source_path).catch(() => undefined), api.definitions().catch(() => [])]);
  const matcher = termMatcher(defs);
  const seen = new Set<string>();
  const terms = queryTerms(query);
  const blocks = chunks.flatMap((c) => toBlocks(c.content).map((b) => ({ b, refs: c.cross_references, chunk: c.id })));
  // The section's own heading and its parents' headings are shown as the title and breadcrumb already.
  const shown = new Set([first.section_title, first.section_id, ...first.parent_chain]);
  const body = blocks.filter(({ b }) => !(b.kind === "heading" && shown.has(b.text)));
  const unit = findUnit(body.map((x) => x.b), unitPath(id, first.section_id));
  const target = unit < 0 && at && at !== first.id ? body.findIndex((x) => x.chunk === at) : -1;
  const rendered = body.map(({ b, refs: xrefs, chunk }, i) => {
    const inline = decorate(b.text, [...crossReferenceLinks(b.text, xrefs), ...termLinks(b.text, matcher, seen), ...queryMarks(b.text, terms)]);
    const cls = [
      b.kind === "item" ? "item" : "",
      /^\(\w+\)\s/.test(b.text) ? "point" : "",
      i === unit ? "unit-target" : "",
      target >= 0 && chunk === at ? "in-chunk" : "",
      i === target ? "chunk-target" : "",
    ].filter(Boolean).join(" ");
    if (b.kind === "heading") return h(b.level <= 3 ? "h2" : "h3", cls ? { class: cls } : {}, inline);
    return h("p", cls ? { class: cls } : {}, inline);
  });
  const title = first.section_title || first.section_id;
  const article = h(
    "article",
    { class: "section" },
    breadcrumb(outline, first),
    h("h1", { tabindex: "-1" }, title),
    h(
      "p",
      { class: "tags" },
      h("code", { class: "sid" }, first.section_id),
      h("span", { class: `type type-${first.chunk_type}` }, first.chunk_type),
      h("span", { class: "doc" }, first.source_path.split(/[\\/]/).pop() ?? first.source_path),
    ),
    h("div", { class: "prose" }, rendered),
    pendingReferences(refs),
    outline ? neighbours(outline, first.section_id) : null,
  );
  const layout = h(
    "div",
    { class: "reader" },
    outline ? h("div", { class: "sidebar" }, h("details", { class: "outline-toggle", open: window.matchMedia("(min-width: 60rem)").matches }, h("summary", {}, "Outline"), outlineNav(outline, first.section_id))) : null,
    article,
  );
  mount(main, layout);
  if (unit >= 0) main.querySelector(".unit-target")?.scrollIntoView({ block: "center" });
  else main.querySelector(".chunk-target")?.scrollIntoView({ block: "start" });
  // Scroll the outline (not the page) so the current chapter's heading is at its top, or the current section is in view.
  const current = main.querySelector<HTMLElement>(".outline [aria-current=page]");
  const scroller = main.querySelector<HTMLElement>(".outline");
  if (current && scroller) {
    const group = current.closest(".ol-group")?.querySelector<HTMLElement>("summary");
    const top = group ? group.offsetTop - 4 : current.offsetTop - scroller.clientHeight / 3;
    scroller.scrollTop = current.offsetTop + current.offsetHeight - top < scroller.clientHeight ? top : current.offsetTop - scroller.clientHeight / 3;
  }
}
