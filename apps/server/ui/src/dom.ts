// A tiny element builder: text is always set as text (never parsed as HTML).

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

/** Creates an element; attributes starting with `on` are listeners, `false`/null/undefined ones are skipped. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Array<Child | Child[]>): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

/** Appends children (strings become text nodes). */
export function append(el: Node, children: Array<Child | Child[]>): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
}

/** The page path of a section (the section view); `query` is highlighted there and the view opens at chunk `at`. */
export function sectionHref(id: string, query?: string, at?: string): string {
  const p = new URLSearchParams();
  if (query) p.set("q", query);
  if (at) p.set("at", at);
  const qs = p.toString();
  return `/s/${encodeURIComponent(id)}${qs ? `?${qs}` : ""}`;
}

/** An anchor id for a defined term on the definitions page. */
export function termSlug(term: string): string {
  return `t-${term.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}`;
}

/** Replaces the content of `main` and moves focus to its heading (for screen readers and keyboard users). */
export function mount(main: HTMLElement, ...children: Child[]): void {
  main.replaceChildren();
  append(main, children);
}

/** A status line (role=status) or an alert for errors. */
export function notice(text: string, kind: "status" | "alert" = "status"): HTMLElement {
  return h("p", { class: `notice ${kind}`, role: kind }, text);
}
