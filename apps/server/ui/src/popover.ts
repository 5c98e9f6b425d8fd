// The definition popover: shown on hover (after a short delay) or focus of a defined term, kept open by a
// click, closed by Escape, a click elsewhere, or its close button.
import { api, type Definition } from "./api.js";
import { h, sectionHref } from "./dom.js";

let box: HTMLElement | undefined;
let anchor: HTMLElement | undefined;
let pinned = false;
let hoverTimer: number | undefined;

/** Definitions handed over by a view (a search result carries the ones its chunk uses). */
const known = new Map<string, Definition[]>();

/** Makes `defs` available to the popover without a request. */
export function rememberDefinitions(defs: Definition[]): void {
  for (const d of defs) {
    const key = d.term.toLowerCase();
    const list = known.get(key) ?? [];
    if (!list.some((x) => x.source_section === d.source_section)) list.push(d);
    known.set(key, list);
  }
}

async function definitionsOf(term: string): Promise<Definition[]> {
  const key = term.toLowerCase();
  const local = known.get(key);
  if (local) return local;
  const all = await api.definitions();
  return all.filter((d) => d.term.toLowerCase() === key);
}

/** Closes the popover (focus returns to its term when it was inside the popover). */
export function closePopover(): void {
  if (!box || box.hidden) return;
  const hadFocus = box.contains(document.activeElement);
  box.hidden = true;
  anchor?.setAttribute("aria-expanded", "false");
  if (hadFocus) anchor?.focus();
  anchor = undefined;
  pinned = false;
}

async function open(target: HTMLElement, pin: boolean): Promise<void> {
  if (!box) return;
  const term = target.dataset.term ?? "";
  const defs = await definitionsOf(term);
  if (defs.length === 0) return;
  anchor?.setAttribute("aria-expanded", "false");
  anchor = target;
  pinned = pin;
  target.setAttribute("aria-expanded", "true");
  box.replaceChildren(
    h("div", { class: "pop-head" }, h("strong", { class: "pop-term" }, defs[0].term), h("button", { type: "button", class: "pop-close", "aria-label": "Close definition", onclick: () => closePopover() }, "×")),
    ...defs.map((d) =>
      h("div", { class: "pop-def" }, h("p", {}, d.definition_text), h("p", { class: "pop-src" }, "Defined in ", h("a", { href: sectionHref(d.source_section) }, d.source_section))),
    ),
  );
  box.hidden = false;
  place(target);
}

function place(target: HTMLElement): void {
  if (!box) return;
  if (window.matchMedia("(max-width: 40rem)").matches) {
    box.style.left = box.style.top = "";
    return;
  }
  const r = target.getBoundingClientRect();
  const width = Math.min(420, window.innerWidth - 24);
  const left = Math.max(12, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - width - 12));
  const below = r.bottom + window.scrollY + 8;
  box.style.left = `${left}px`;
  box.style.top = `${below}px`;
}

function termOf(e: Event): HTMLElement | null {
  return (e.target as Element | null)?.closest?.("[data-term]") ?? null;
}

/** Wires the popover element and the delegated listeners for every `[data-term]` on the page. */
export function installPopover(el: HTMLElement): void {
  box = el;
  document.addEventListener("click", (e) => {
    const t = termOf(e);
    if (t) {
      e.preventDefault();
      if (anchor === t && pinned) closePopover();
      // Opened from the keyboard (Enter on the term): focus moves into the popover; Escape brings it back.
      else void open(t, true).then(() => (e as MouseEvent).detail === 0 && box?.focus());
      return;
    }
    if (box && !box.hidden && !box.contains(e.target as Node)) closePopover();
  });
  document.addEventListener("mouseover", (e) => {
    const t = termOf(e);
    if (!t || pinned) return;
    window.clearTimeout(hoverTimer);
    hoverTimer = window.setTimeout(() => void open(t, false), 250);
  });
  document.addEventListener("mouseout", (e) => {
    const t = termOf(e);
    if (!t) return;
    window.clearTimeout(hoverTimer);
    const to = (e as MouseEvent).relatedTarget as Node | null;
    if (!pinned && anchor === t && !(to && box?.contains(to))) closePopover();
  });
  el.addEventListener("mouseleave", () => {
    if (!pinned) closePopover();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && box && !box.hidden) {
      e.preventDefault();
      e.stopPropagation();
      closePopover();
    }
  });
}
