// The search view: results with breadcrumb, section id, highlighted query words, per-leg scores and the
// definitions of the defined terms each chunk uses.
import { api, ApiError, type Result, type SearchRequest } from "./api.js";
import { h, mount, notice, sectionHref } from "./dom.js";
import { rememberDefinitions } from "./popover.js";
import { decorate, queryMarks, queryTerms, snippet } from "./text.js";

/** The search as the URL holds it (`/?q=…&mode=…&doc=…&prefix=…&type=…`). */
export interface SearchParams {
  q: string;
  mode: string;
  doc: string;
  prefix: string;
  type: string;
}

/** Reads the search parameters from a query string. */
export function readParams(search: string): SearchParams {
  const p = new URLSearchParams(search);
  return { q: p.get("q") ?? "", mode: p.get("mode") ?? "hybrid", doc: p.get("doc") ?? "", prefix: p.get("prefix") ?? "", type: p.get("type") ?? "" };
}

/** The page URL of a search (defaults left out). */
export function searchUrl(s: SearchParams): string {
  const p = new URLSearchParams();
  p.set("q", s.q);
  if (s.mode && s.mode !== "hybrid") p.set("mode", s.mode);
  if (s.doc) p.set("doc", s.doc);
  if (s.prefix) p.set("prefix", s.prefix);
  if (s.type) p.set("type", s.type);
  return `/?${p}`;
}

/** A source path as a glob that matches only itself. */
const literalGlob = (path: string): string => path.replace(/[*?[\]{}()!+@\\]/g, "\\$&");

function request(s: SearchParams): SearchRequest {
  const filters: NonNullable<SearchRequest["filters"]> = {};
  if (s.doc) filters.source = literalGlob(s.doc);
  if (s.prefix.trim()) filters.section_prefix = s.prefix.trim();
  if (s.type) filters.chunk_type = s.type;
  return { query: s.q, mode: s.mode, top_k: 20, ...(Object.keys(filters).length > 0 ? { filters } : {}) };
}

const LEGS: Array<[string, string]> = [
  ["semantic", "Semantic (dense vectors)"],
  ["keyword", "Keyword (BM25)"],
  ["exact", "Exact id / phrase"],
  ["rerank", "Rerank"],
];

function legTable(r: Result): HTMLElement {
  const names = [...new Set([...LEGS.map(([k]) => k), ...Object.keys(r.scores), ...Object.keys(r.ranks ?? {})])].filter((k) => k in r.scores || k in (r.ranks ?? {}));
  const label = (k: string): string => LEGS.find(([n]) => n === k)?.[1] ?? k;
  const fmt = (v: number | null | undefined): string => (v === null || v === undefined ? "—" : Number.isInteger(v) ? String(v) : v.toFixed(4));
  return h(
    "details",
    { class: "legs" },
    h("summary", {}, "Scores by leg"),
    h(
      "table",
      {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Leg"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Rank"))),
      h(
        "tbody",
        {},
        names.map((k) => h("tr", {}, h("th", { scope: "row" }, label(k)), h("td", {}, fmt(r.scores[k])), h("td", {}, fmt(r.ranks?.[k])))),
        h("tr", { class: "fused" }, h("th", { scope: "row" }, "Fused (RRF)"), h("td", {}, fmt(r.score)), h("td", {}, String(r.rank))),
      ),
    ),
  );
}

function resultItem(r: Result, query: string, terms: string[], index: number): HTMLElement {
  const text = snippet(r.content, terms);
  const title = r.section_title && r.section_title !== r.section_id ? r.section_title : r.section_id;
  rememberDefinitions(r.definitions);
  const defs = [...new Map(r.definitions.map((d) => [d.term.toLowerCase(), d])).values()];
  return h(
    "li",
    { class: "result", "data-index": index },
    r.parent_chain.length > 0 ? h("p", { class: "crumbs" }, r.parent_chain.flatMap((c, i) => [i > 0 ? h("span", { class: "sep", "aria-hidden": "true" }, "›") : null, h("span", {}, c)])) : null,
    h("h2", { class: "result-title" }, h("a", { class: "result-link", href: sectionHref(r.section_id, query, r.id) }, title)),
    h(
      "p",
      { class: "tags" },
      h("code", { class: "sid" }, r.section_id),
      h("span", { class: `type type-${r.chunk_type}` }, r.chunk_type),
      h("span", { class: "doc" }, r.source_path.split(/[\\/]/).pop() ?? r.source_path),
    ),
    h("p", { class: "snippet" }, decorate(text, queryMarks(text, terms))),
    defs.length > 0
      ? h(
          "p",
          { class: "defs" },
          h("span", { class: "defs-label" }, "Defined terms:"),
          defs.map((d) => h("button", { type: "button", class: "term-chip", "data-term": d.term, "aria-haspopup": "dialog" }, d.term)),
        )
      : null,
    legTable(r),
  );
}

/** Runs the search in `s` and shows its results in `main`. */
export async function renderSearch(main: HTMLElement, s: SearchParams): Promise<void> {
  if (!s.q.trim()) {
    mount(main, h("h1", { class: "visually-hidden", tabindex: "-1" }, "Search"), await intro());
    return;
  }
  const status = notice("Searching…");
  mount(main, h("h1", { class: "visually-hidden", tabindex: "-1" }, `Search results for ${s.q}`), status);
  const t0 = performance.now();
  let res;
  try {
    res = await api.search(request(s));
  } catch (err) {
    mount(main, notice(err instanceof ApiError ? `The search failed: ${err.message}` : "The server cannot be reached.", "alert"));
    return;
  }
  const ms = Math.round(performance.now() - t0);
  const terms = queryTerms(s.q);
  const head = `${res.results.length} result${res.results.length === 1 ? "" : "s"} for “${s.q}” · ${res.mode} · ${ms} ms`;
  mount(
    main,
    h("h1", { class: "visually-hidden", tabindex: "-1" }, `Search results for ${s.q}`),
    h("p", { class: "meta", role: "status" }, head),
    ...res.warnings.map((w) => notice(w)),
    res.results.length === 0
      ? h("p", { class: "empty" }, "Nothing found. Try other words, another mode, or fewer filters.")
      : h("ol", { class: "results", "aria-label": "Results" }, res.results.map((r, i) => resultItem(r, s.q, terms, i))),
  );
}

async function intro(): Promise<HTMLElement> {
  const docs = await api.documents().catch(() => []);
  return h(
    "section",
    { class: "intro" },
    h("h2", {}, "Search the regulations in this index"),
    h("p", {}, "Ask in your own words or type a section id. Results show where each passage sits in its document; open one to read the whole section in its outline."),
    h("p", { class: "muted" }, "Press / to search from anywhere, ↑ ↓ or j k to move through results, Enter to open one."),
    docs.length > 0 ? h("h2", {}, "Documents") : null,
    docs.length > 0
      ? h("ul", { class: "doc-list" }, docs.map((d) => h("li", {}, d.first_section_id ? h("a", { href: sectionHref(d.first_section_id) }, d.title) : h("strong", {}, d.title), h("span", { class: "muted" }, ` — ${d.sections} sections, ${d.chunks} passages`))))
      : null,
  );
}
