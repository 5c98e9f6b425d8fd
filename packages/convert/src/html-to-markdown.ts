import TurndownService from "turndown";

/** The part of a DOM element the table and image rules read (the package compiles without the DOM lib). */
interface DomElement {
  nodeName: string;
  textContent: string | null;
  children: ArrayLike<DomElement>;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  getAttribute(name: string): string | null;
  parentNode: DomElement | null;
  nextSibling: unknown;
}

function cellText(node: DomElement): string {
  return (node.textContent ?? "").replace(/\s+/g, " ").trim().replace(/\|/g, "\\|");
}

function tableMarkdown(table: DomElement): string {
  const rows: string[][] = [];
  for (const tr of Array.from(table.querySelectorAll("tr"))) {
    if (tr.closest("table") !== table) continue;
    rows.push(Array.from(tr.children).filter((c) => /^(TD|TH)$/i.test(c.nodeName)).map((c) => cellText(c)));
  }
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return "";
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  return `\n\n${[line(rows[0]), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)].join("\n")}\n\n`;
}

let service: TurndownService | undefined;

/** A shared turndown instance: ATX headings, fenced code, `-` bullets, GFM-style tables, no scripts or styles. */
function turndown(): TurndownService {
  if (service) return service;
  const s = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "*",
    hr: "---",
  });
  s.remove(["script", "style", "noscript", "template", "iframe", "object", "embed", "head", "title", "meta", "link", "svg", "canvas", "form"] as never);
  s.addRule("table", { filter: ["table"], replacement: (_content, node) => tableMarkdown(node as unknown as DomElement) });
  s.addRule("listItem", {
    filter: "li",
    replacement: (content, li, options) => {
      const node = li as unknown as DomElement;
      const parent = node.parentNode;
      let prefix = `${options.bulletListMarker ?? "-"} `;
      if (parent?.nodeName === "OL") {
        const start = Number(parent.getAttribute("start") ?? 1) || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content.replace(/^\n+/, "").replace(/\n+$/, "\n").replace(/\n/gm, `\n${" ".repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? "\n" : "");
    },
  });
  s.addRule("image", { filter: ["img"], replacement: (_c, node) => {
    const alt = (node as unknown as DomElement).getAttribute("alt")?.trim();
    return alt ? `[image: ${alt}]` : "";
  } });
  service = s;
  return s;
}

/** Converts HTML to markdown with real headings; scripts, styles and embedded objects are dropped. */
export function htmlToMarkdown(html: string): string {
  const md = turndown().turndown(html);
  return md.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim() + "\n";
}

/** Text of the HTML `<title>`, if any. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html.slice(0, 65536));
  const t = m?.[1].replace(/<[^>]+>/g, "").replace(/\s+/g, " ").trim();
  return t || undefined;
}
