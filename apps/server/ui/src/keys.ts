// Keyboard navigation: "/" focuses the search box, ↓/↑ or j/k move through results (Enter opens the
// focused one, as any link), Escape leaves the search box.

const isTyping = (el: Element | null): boolean => !!el && (el.matches("input, select, textarea") || (el as HTMLElement).isContentEditable);

function move(by: number): boolean {
  const links = [...document.querySelectorAll<HTMLAnchorElement>(".results .result-link")];
  if (links.length === 0) return false;
  const at = links.findIndex((a) => a === document.activeElement);
  const next = at < 0 ? (by > 0 ? 0 : links.length - 1) : Math.max(0, Math.min(links.length - 1, at + by));
  select(links[next]);
  return true;
}

/** Marks the result holding `link` as selected and focuses its link. */
export function select(link: HTMLAnchorElement): void {
  for (const li of document.querySelectorAll(".results .result.selected")) li.classList.remove("selected");
  link.closest(".result")?.classList.add("selected");
  link.focus();
  link.closest(".result")?.scrollIntoView({ block: "nearest" });
}

/** Installs the page's keyboard shortcuts. */
export function installKeys(searchBox: HTMLInputElement): void {
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const active = document.activeElement;
    if (e.key === "/" && !isTyping(active)) {
      e.preventDefault();
      searchBox.focus();
      searchBox.select();
      return;
    }
    if (active === searchBox) {
      if (e.key === "Escape") searchBox.blur();
      else if (e.key === "ArrowDown" && move(1)) e.preventDefault();
      return;
    }
    if (isTyping(active)) return;
    if ((e.key === "ArrowDown" || e.key === "j") && move(1)) e.preventDefault();
    else if ((e.key === "ArrowUp" || e.key === "k") && move(-1)) e.preventDefault();
  });
  document.addEventListener("focusin", (e) => {
    const link = (e.target as Element).closest?.(".results .result-link");
    if (link) {
      for (const li of document.querySelectorAll(".results .result.selected")) li.classList.remove("selected");
      link.closest(".result")?.classList.add("selected");
    }
  });
}
