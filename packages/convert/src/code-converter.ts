import type { ConvertInput, ConvertedDocument, Converter, SourceMapEntry } from "@hierdoc/core";
import { codeLanguageOf, CODE_LANGUAGES, type CodeLanguage } from "./code-languages.js";
import { outlineCode, type CodeDefinition } from "./code-outline.js";
import { decodeText, normalizeNewlines } from "./decode-text.js";
import { fileError, parseError } from "./errors.js";
import { extensionOf } from "./sniff.js";

/** Options of {@link CodeConverter}. */
export interface CodeOptions {
  /** Files larger than this (characters) are not outlined, only fenced as one block (default 2 Mi). */
  maxOutlineChars?: number;
  /** Languages to outline (default {@link CODE_LANGUAGES}). */
  languages?: readonly CodeLanguage[];
}

/** Builds the converted markdown and its line-range source map, keeping code verbatim. */
class CodeWriter {
  private readonly parts: string[] = [];
  private length = 0;
  readonly sourceMap: SourceMapEntry[] = [];

  constructor(
    private readonly lines: string[],
    private readonly fenceInfo: string,
  ) {}

  private push(text: string, anchor?: string): void {
    if (this.length > 0) {
      this.parts.push("\n\n");
      this.length += 2;
    }
    const start = this.length;
    this.parts.push(text);
    this.length += text.length;
    if (anchor) this.sourceMap.push({ start, end: this.length, anchor });
  }

  heading(level: number, title: string, from: number, to: number): void {
    this.push(`${"#".repeat(Math.min(6, level))} ${title.replace(/\s+/g, " ").trim()}`, lineAnchor(from, to));
  }

  /** Lines `[from, to]` (0-based, inclusive) as one fenced block, blank edges trimmed; nothing when blank. */
  code(from: number, to: number): void {
    from = Math.max(0, from);
    to = Math.min(this.lines.length - 1, to);
    while (from <= to && this.lines[from].trim() === "") from++;
    while (to >= from && this.lines[to].trim() === "") to--;
    if (from > to) return;
    const body = this.lines.slice(from, to + 1).join("\n");
    const longest = Math.max(2, ...(body.match(/`{3,}/g) ?? []).map((m) => m.length));
    const fence = "`".repeat(longest + 1);
    this.push(`${fence}${this.fenceInfo}\n${body}\n${fence}`, lineAnchor(from, to));
  }

  toString(): string {
    return this.length === 0 ? "" : `${this.parts.join("")}\n`;
  }
}

/** Definitions with rows limited to the file's last line (tree-sitter may end an unclosed block past it). */
function clampRows(defs: CodeDefinition[], last: number): CodeDefinition[] {
  return defs.map((d) => ({ ...d, startRow: Math.min(d.startRow, last), endRow: Math.min(d.endRow, last), children: clampRows(d.children, last) }));
}

/** GitHub-style line anchor, 1-based: `L12-L40` (`L12` for one line). */
function lineAnchor(from: number, to: number): string {
  return from === to ? `L${from + 1}` : `L${from + 1}-L${to + 1}`;
}

/** True when lines `[from, to]` hold only blank lines, closing punctuation (`}`, `};`, `end`), `#endif` / `#else` and one-line comments. */
function onlyClosers(lines: string[], from: number, to: number): boolean {
  for (let i = from; i <= to; i++) {
    if (!/^\s*([}\])];?|end|\};?\s*\/\/.*|#\s*(endif|else)\b.*|\/\/.*|\/\*.*\*\/)?\s*$/.test(lines[i])) return false;
  }
  return true;
}

/**
 * Writes a definition list in source order: each definition's heading, its own lines up to its first
 * member, then its members one level deeper. Code between definitions stays where it is: closing braces
 * after the last member join its block; other code gets a section of its own, titled by its enclosing name and
 * lines ("Parser (lines 30–32)", "top level (lines 80–84)"), so no code is attributed to the wrong function.
 */
function writeDefinitions(
  w: CodeWriter,
  lines: string[],
  defs: CodeDefinition[],
  level: number,
  from: number,
  to: number,
  owner: string,
): void {
  let cursor = from;
  const gap = (a: number, b: number): void => {
    if (a > b) return;
    if (onlyClosers(lines, a, b)) w.code(a, b);
    else {
      const first = lines.findIndex((l, i) => i >= a && i <= b && l.trim() !== "");
      let last = b;
      while (last > a && lines[last].trim() === "") last--;
      w.heading(level, `${owner} (${first === last ? `line ${first + 1}` : `lines ${first + 1}–${last + 1}`})`, first, last);
      w.code(a, b);
    }
  };
  defs.forEach((def, i) => {
    gap(cursor, def.startRow - 1);
    let end = def.endRow;
    if (i === defs.length - 1 && end < to && onlyClosers(lines, end + 1, to)) end = to;
    w.heading(level, def.title, def.startRow, def.endRow);
    if (def.children.length > 0) {
      const first = def.children[0].startRow;
      w.code(def.startRow, first - 1);
      writeDefinitions(w, lines, def.children, level + 1, first, end, def.title);
    } else w.code(def.startRow, end);
    cursor = end + 1;
  });
  gap(cursor, to);
}

/**
 * Source code (`.py`, `.ts`/`.js`, `.java`, `.rs`, `.c`/`.h`/`.cpp`, `.go`, `.rb`, `.cs`, `.php`, … see
 * {@link CODE_LANGUAGES}) → markdown whose sections are the file's definitions: `# path`, then each
 * top-level function, class, impl or namespace as `##`, members as `###` titled `Class.method`
 * (`Type::method` in C++/Rust), each with its code fenced verbatim. The file's preamble (imports) sits under
 * the `#` heading. Parsed with tree-sitter grammars compiled to WASM (`@vscode/tree-sitter-wasm`; nothing is
 * downloaded). Source map: `anchor` = `L12-L40` line ranges of the original file.
 */
export class CodeConverter implements Converter {
  readonly id = "code";
  private readonly languages: readonly CodeLanguage[];

  constructor(private readonly options: CodeOptions = {}) {
    this.languages = options.languages ?? CODE_LANGUAGES;
  }

  canConvert(input: ConvertInput): boolean {
    return this.languageOf(input.path) !== undefined;
  }

  private languageOf(path: string): CodeLanguage | undefined {
    const ext = extensionOf(path);
    return this.languages === CODE_LANGUAGES ? codeLanguageOf(ext) : this.languages.find((l) => l.extensions.includes(ext));
  }

  /** @throws HierdocError E_INPUT_* for bad text (see `decodeText`), E_PARSE when the grammar cannot be loaded. */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const { path } = input;
    const lang = this.languageOf(path);
    if (!lang) throw fileError("E_UNSUPPORTED_TYPE", path, "not a source file of a known language");
    const source = normalizeNewlines(decodeText(path, input.bytes));
    if (source.trim() === "") throw fileError("E_INPUT_EMPTY", path, "the source file is empty");
    const lines = source.replace(/\n$/, "").split("\n");
    let defs: CodeDefinition[] = [];
    if (source.length <= (this.options.maxOutlineChars ?? 2 * 1024 * 1024)) {
      try {
        defs = await outlineCode(source, lang);
      } catch (err) {
        throw parseError(path, `${lang.id} source (tree-sitter)`, err);
      }
    }
    const w = new CodeWriter(lines, lang.id);
    w.heading(1, path.replace(/\\/g, "/"), 0, lines.length - 1);
    const firstDef = defs.length > 0 ? defs[0].startRow : lines.length;
    w.code(0, firstDef - 1);
    if (defs.length > 0) writeDefinitions(w, lines, clampRows(defs, lines.length - 1), 2, firstDef, lines.length - 1, "top level");
    const title = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
    return { sourcePath: path, fileType: `code-${lang.id}`, format: "markdown", text: w.toString(), title, sourceMap: w.sourceMap };
  }
}
