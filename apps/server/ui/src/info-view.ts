// Index statistics: what the served index holds and how it was built.
import { api, type Stats } from "./api.js";
import { h, mount, notice, sectionHref } from "./dom.js";

const n = (x: number): string => x.toLocaleString("en");

/** Shows the index statistics and the documents in `main`. */
export async function renderInfo(main: HTMLElement): Promise<void> {
  mount(main, notice("Loading index statistics…"));
  let s: Stats;
  try {
    s = await api.stats();
  } catch {
    mount(main, notice("The index statistics cannot be loaded.", "alert"));
    return;
  }
  const card = (label: string, value: string): HTMLElement => h("div", { class: "card" }, h("span", { class: "card-value" }, value), h("span", { class: "card-label" }, label));
  const caps = Object.entries(s.capabilities).map(([k, v]) => `${k}: ${String(v)}`).join(", ");
  mount(
    main,
    h(
      "section",
      { class: "info" },
      h("h1", { tabindex: "-1" }, "Index"),
      h("div", { class: "cards" }, card("documents", n(s.files)), card("passages", n(s.chunks)), card("defined terms", n(s.definitions)), card("keyword documents", n(s.keyword_docs))),
      h("h2", {}, "Documents"),
      h(
        "table",
        { class: "docs" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Title"), h("th", { scope: "col" }, "Sections"), h("th", { scope: "col" }, "Passages"))),
        h("tbody", {}, s.documents.map((d) => h("tr", {}, h("td", {}, d.first_section_id ? h("a", { href: sectionHref(d.first_section_id) }, d.title) : h("span", {}, d.title), h("br", {}), h("code", { class: "path" }, d.source_path)), h("td", {}, n(d.sections)), h("td", {}, n(d.chunks))))),
      ),
      h("h2", {}, "Retrieval"),
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, "Embedder"),
        h("dd", {}, `${s.embedder} (${s.dimensions} dimensions)`),
        h("dt", {}, "Store"),
        h("dd", {}, s.store),
        h("dt", {}, "Store capabilities"),
        h("dd", {}, caps),
      ),
      h("h2", {}, "Keyboard"),
      h(
        "dl",
        { class: "facts keys" },
        h("dt", {}, h("kbd", {}, "/")),
        h("dd", {}, "focus the search box"),
        h("dt", {}, h("kbd", {}, "↓"), " ", h("kbd", {}, "↑"), " or ", h("kbd", {}, "j"), " ", h("kbd", {}, "k")),
        h("dd", {}, "move through results"),
        h("dt", {}, h("kbd", {}, "Enter")),
        h("dd", {}, "open the selected result or link"),
        h("dt", {}, h("kbd", {}, "Esc")),
        h("dd", {}, "close a definition, leave the search box"),
      ),
      h("p", { class: "muted" }, "Programs use the same JSON API: ", h("a", { href: "/openapi.json" }, "OpenAPI document"), "."),
    ),
  );
}
