// The search page's entry: routing between the views, the header search form, links and shortcuts.
import { api } from "./api.js";
import { h } from "./dom.js";
import { renderInfo } from "./info-view.js";
import { installKeys } from "./keys.js";
import { closePopover, installPopover } from "./popover.js";
import { readParams, renderSearch, searchUrl, type SearchParams } from "./search-view.js";
import { renderSection } from "./section-view.js";
import { renderTerms } from "./terms-view.js";

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const main = $<HTMLElement>("main");
const form = $<HTMLFormElement>("search");
const q = $<HTMLInputElement>("q");
const fields = { mode: $<HTMLSelectElement>("mode"), doc: $<HTMLSelectElement>("doc"), prefix: $<HTMLInputElement>("prefix"), type: $<HTMLSelectElement>("type") };
const PAGES = /^\/(?:$|s\/|terms$|info$)/;

function formParams(): SearchParams {
  return { q: q.value.trim(), mode: fields.mode.value, doc: fields.doc.value, prefix: fields.prefix.value.trim(), type: fields.type.value };
}

function syncForm(s: SearchParams): void {
  q.value = s.q;
  fields.mode.value = s.mode;
  fields.prefix.value = s.prefix;
  fields.type.value = s.type;
  if (s.doc && ![...fields.doc.options].some((o) => o.value === s.doc)) fields.doc.append(h("option", { value: s.doc }, s.doc));
  fields.doc.value = s.doc;
  if (s.doc || s.prefix || s.type) $<HTMLDetailsElement>("filters").open = true;
}

function markNav(path: string): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>(".links a")) {
    if (a.pathname === path) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

async function route(focusHeading: boolean): Promise<void> {
  closePopover();
  // Each navigation renders into its own element: a slower earlier view (Back pressed twice quickly) then
  // finishes into a detached element instead of replacing the current one.
  const view = document.createElement("div");
  view.className = "view";
  main.replaceChildren(view);
  const path = location.pathname;
  markNav(path);
  if (path.startsWith("/s/")) {
    const id = decodeURIComponent(path.slice(3));
    const params = new URLSearchParams(location.search);
    document.title = `${id} · hierdoc`;
    await renderSection(view, id, params.get("q") ?? "", params.get("at") ?? "");
  } else if (path === "/terms") {
    document.title = "Definitions · hierdoc";
    await renderTerms(view);
  } else if (path === "/info") {
    document.title = "Index · hierdoc";
    await renderInfo(view);
  } else {
    const s = readParams(location.search);
    syncForm(s);
    document.title = s.q ? `${s.q} · hierdoc` : "hierdoc";
    await renderSearch(view, s);
    return;
  }
  if (!view.isConnected) return;
  if (focusHeading) view.querySelector<HTMLElement>("h1")?.focus({ preventScroll: true });
  if (focusHeading && !view.querySelector(".unit-target, .chunk-target") && !location.hash) window.scrollTo(0, 0);
}

/** Goes to a page of the app without reloading. */
function navigate(url: string): void {
  history.pushState(null, "", url);
  void route(true);
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  const s = formParams();
  if (!s.q) {
    q.focus();
    return;
  }
  history.pushState(null, "", searchUrl(s));
  void route(false);
});

document.addEventListener("click", (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element).closest?.("a[href]") as HTMLAnchorElement | null;
  if (!a || a.origin !== location.origin || !PAGES.test(a.pathname) || a.target || a.closest("[data-term]")) return;
  if (a.pathname === location.pathname && a.search === location.search && a.hash) return;
  e.preventDefault();
  navigate(a.pathname + a.search + a.hash);
});

window.addEventListener("popstate", () => void route(true));

installPopover($<HTMLElement>("popover"));
installKeys(q);
void api
  .documents()
  .then((docs) => {
    const current = fields.doc.value;
    for (const d of docs) if (![...fields.doc.options].some((o) => o.value === d.source_path)) fields.doc.append(h("option", { value: d.source_path }, d.title));
    fields.doc.value = current;
  })
  .catch(() => undefined);
void route(false);
