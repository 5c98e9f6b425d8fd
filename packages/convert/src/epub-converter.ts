import type { ConvertInput, ConvertedDocument, Converter, SourceMapEntry } from "@hierdoc/core";
import { fileError, parseError } from "./errors.js";
import { htmlToMarkdown } from "./html-to-markdown.js";
import { firstMarkdownHeading } from "./markdown-converter.js";
import { OfficeArchive, resolvePart, zipMimetype, type ArchiveLimits } from "./office-zip.js";
import { extensionOf } from "./sniff.js";
import { childElements, firstChild, textOf, type XmlElement } from "./xml-tree.js";

const EPUB_MIME = "application/epub+zip";
const XHTML_TYPES = new Set(["application/xhtml+xml", "text/html"]);

/** Options of {@link EpubConverter}. */
export interface EpubOptions extends ArchiveLimits {
  /** Most spine items (chapters) read (default 5,000); more fail with E_INPUT_TOO_LARGE. */
  maxChapters?: number;
}

function stripFragment(href: string): string {
  const hash = href.indexOf("#");
  const bare = hash === -1 ? href : href.slice(0, hash);
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

/** Chapter labels from the EPUB 3 nav document or the EPUB 2 NCX: part name → first label. */
function tocLabels(zip: OfficeArchive, opfPath: string, manifest: XmlElement[], spineToc?: string): Map<string, string> {
  const labels = new Map<string, string>();
  const add = (from: string, href: string | undefined, label: string): void => {
    if (!href || label === "") return;
    const part = resolvePart(from, stripFragment(href));
    if (!labels.has(part)) labels.set(part, label);
  };
  const nav = manifest.find((m) => (m.attrs.properties ?? "").split(/\s+/).includes("nav"));
  if (nav?.attrs.href) {
    const navPath = resolvePart(opfPath, stripFragment(nav.attrs.href));
    const doc = zip.xml(navPath);
    const walk = (el: XmlElement): void => {
      for (const c of childElements(el)) {
        if (c.name === "a") add(navPath, c.attrs.href, textOf(c));
        else walk(c);
      }
    };
    if (doc) walk(doc);
  }
  const ncx = manifest.find((m) => m.attrs.id === spineToc || m.attrs["media-type"] === "application/x-dtbncx+xml");
  if (ncx?.attrs.href) {
    const ncxPath = resolvePart(opfPath, stripFragment(ncx.attrs.href));
    const doc = zip.xml(ncxPath);
    const walk = (el: XmlElement): void => {
      for (const c of childElements(el)) {
        if (c.name === "navPoint") {
          add(ncxPath, firstChild(c, "content")?.attrs.src, textOf(firstChild(firstChild(c, "navLabel") ?? c, "text")));
        }
        walk(c);
      }
    };
    if (doc) walk(doc);
  }
  return labels;
}

/**
 * EPUB books (`.epub`, or a zip whose `mimetype` is `application/epub+zip`) → markdown: the XHTML chapters
 * of the spine in reading order (non-linear items left out), each converted like HTML (turndown). A chapter
 * without a heading of its own gets `# label` from the table of contents (nav or NCX), else its `<title>`.
 * Source map: `anchor` = the chapter's path in the archive, one span per chapter. Guards: zip bomb, entry count, XML entities and depth in the container, OPF and navigation
 * parts; chapters go through the HTML parser (no entity expansion, scripts dropped).
 */
export class EpubConverter implements Converter {
  readonly id = "epub";

  constructor(private readonly options: EpubOptions = {}) {}

  canConvert(input: ConvertInput): boolean {
    return extensionOf(input.path) === "epub" || zipMimetype(input.bytes) === EPUB_MIME;
  }

  /**
   * @throws HierdocError E_PARSE when the file is not a zip, has no container/OPF or a part is not
   *   well-formed; E_INPUT_TOO_LARGE for a zip bomb or too many chapters; E_INPUT_EMPTY without text.
   */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path } = input;
    const zip = OfficeArchive.open(path, input.bytes, "EPUB", this.options);
    const container = zip.xml("META-INF/container.xml", true);
    let opfPath: string | undefined;
    const findRoot = (el: XmlElement): void => {
      for (const c of childElements(el)) {
        if (c.name === "rootfile" && opfPath === undefined) opfPath = c.attrs["full-path"];
        else findRoot(c);
      }
    };
    findRoot(container);
    if (!opfPath) throw fileError("E_PARSE", path, "not an EPUB: META-INF/container.xml names no rootfile");
    const opf = zip.xml(opfPath, true);
    const manifest = childElements(firstChild(opf, "manifest") ?? opf, "item");
    const spine = firstChild(opf, "spine");
    const byId = new Map(manifest.map((m) => [m.attrs.id ?? "", m]));
    const items = (spine ? childElements(spine, "itemref") : [])
      .filter((r) => r.attrs.linear !== "no")
      .map((r) => byId.get(r.attrs.idref ?? ""))
      .filter((m): m is XmlElement => m !== undefined && XHTML_TYPES.has(m.attrs["media-type"] ?? "") && !!m.attrs.href);
    const maxChapters = this.options.maxChapters ?? 5000;
    if (items.length > maxChapters) {
      throw fileError("E_INPUT_TOO_LARGE", path, `the book has ${items.length} chapters; the limit is ${maxChapters} (maxChapters)`);
    }
    const labels = tocLabels(zip, opfPath, manifest, spine?.attrs.toc);
    const parts: string[] = [];
    const sourceMap: SourceMapEntry[] = [];
    let length = 0;
    items.forEach((item, index) => {
      const part = resolvePart(opfPath!, stripFragment(item.attrs.href!));
      const html = zip.textOf(part);
      if (html === undefined) return;
      let converted: string;
      try {
        converted = htmlToMarkdown(html.replace(/\r\n?/g, "\n"));
      } catch (err) {
        throw parseError(path, `EPUB chapter ${part}`, err);
      }
      let body = converted.replace(/\n+$/, "");
      if (!/^#{1,6} /m.test(body) && body.trim() !== "") {
        const label = labels.get(part) ?? /<title[^>]*>([^<]+)<\/title>/i.exec(html)?.[1]?.trim() ?? `Chapter ${index + 1}`;
        const clean = label.replace(/\s+/g, " ").trim();
        const first = /^[^\n]*/.exec(body)![0];
        // A chapter that opens with its own title as a plain paragraph (LibreOffice's export) gets it as the heading.
        body = first.trim() === clean ? `# ${clean}${body.slice(first.length)}` : `# ${clean}\n\n${body}`;
      }
      if (body.trim() === "") return;
      if (length > 0) {
        parts.push("\n\n");
        length += 2;
      }
      const start = length;
      sourceMap.push({ start, end: start + body.length, anchor: part });
      parts.push(body);
      length += body.length;
    });
    const text = parts.length > 0 ? `${parts.join("")}\n` : "";
    if (text.trim() === "") throw fileError("E_INPUT_EMPTY", path, "the EPUB has no text in its spine");
    const title = textOf(firstChild(firstChild(opf, "metadata") ?? opf, "title")) || firstMarkdownHeading(text);
    return { sourcePath: path, fileType: "epub", format: "markdown", text, ...(title ? { title } : {}), sourceMap };
  }
}
