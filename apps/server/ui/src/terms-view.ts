// The definitions index: every defined term with its definition and the section that defines it.
import { api, type Definition } from "./api.js";
import { h, mount, notice, sectionHref, termSlug } from "./dom.js";

/** Shows every defined term in `main`, with a filter box. */
export async function renderTerms(main: HTMLElement): Promise<void> {
  mount(main, notice("Loading definitions…"));
  let defs: Definition[];
  try {
    defs = await api.definitions();
  } catch {
    mount(main, notice("The definitions cannot be loaded.", "alert"));
    return;
  }
  const entries = defs.map((d) =>
    h(
      "div",
      { class: "def-entry", id: termSlug(d.term), "data-filter": `${d.term} ${d.definition_text}`.toLowerCase() },
      h("dt", {}, d.term),
      h("dd", {}, h("p", {}, d.definition_text), h("p", { class: "pop-src" }, "Defined in ", h("a", { href: sectionHref(d.source_section) }, d.source_section))),
    ),
  );
  const count = h("p", { class: "meta", role: "status" }, `${defs.length} defined terms`);
  const filter = h("input", {
    type: "search",
    id: "term-filter",
    class: "filter",
    placeholder: "Filter terms…",
    autocomplete: "off",
    oninput: (e: Event) => {
      const q = (e.target as HTMLInputElement).value.trim().toLowerCase();
      let shown = 0;
      for (const el of entries) {
        const hit = !q || (el.dataset.filter ?? "").includes(q);
        el.hidden = !hit;
        if (hit) shown++;
      }
      count.textContent = q ? `${shown} of ${defs.length} defined terms` : `${defs.length} defined terms`;
    },
  });
  mount(
    main,
    h(
      "section",
      { class: "terms" },
      h("h1", { tabindex: "-1" }, "Definitions"),
      h("p", { class: "lede" }, "Terms the documents define themselves, with the section that defines them. Marked terms in a section open these definitions."),
      h("label", { for: "term-filter", class: "visually-hidden" }, "Filter terms"),
      filter,
      count,
      h("dl", { class: "def-list" }, entries),
    ),
  );
  if (main.isConnected && location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView({ block: "start" });
}
