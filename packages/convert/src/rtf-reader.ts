import { TextDecoder } from "node:util";
import { fileError } from "./errors.js";

/** One block of an RTF document: a paragraph (with its style and list level) or a table row. */
export type RtfBlock =
  | { kind: "paragraph"; text: string; style?: string; outlineLevel?: number; listLevel?: number }
  | { kind: "row"; cells: string[] };

/** What {@link readRtf} found: blocks in order and the `\info` title. */
export interface RtfDocument {
  blocks: RtfBlock[];
  title?: string;
}

/** Limits of {@link readRtf}. */
export interface RtfLimits {
  /** Deepest group nesting accepted (default 256). */
  maxDepth?: number;
}

/** Destinations whose text is not document text (skipped with their whole group). */
const SKIP = new Set([
  "fonttbl", "colortbl", "listtable", "listoverridetable", "pict", "header", "headerl", "headerr", "headerf",
  "footer", "footerl", "footerr", "footerf", "footnote", "fldinst", "object", "objdata", "themedata",
  "datastore", "xmlnstbl", "latentstyles", "rsidtbl", "generator", "listtext", "pntext", "pntxta", "pntxtb",
  "revtbl", "filetbl", "pgdsctbl", "mmathPr", "colorschememapping", "xe", "tc", "bkmkstart", "bkmkend",
]);

const SYMBOLS: Record<string, string> = {
  emdash: "—", endash: "–", lquote: "‘", rquote: "’", ldblquote: "“", rdblquote: "”", bullet: "•",
  emspace: " ", enspace: " ", qmspace: " ", tab: "\t", line: "\n",
};

interface GroupState {
  skip: boolean;
  uc: number;
  /** This group (or an ancestor) is a style definition inside `\stylesheet`. */
  styleDef: boolean;
  /** Inside `\info`; `title` inside its `\title` group. */
  info: "info" | "title" | null;
}

interface ParagraphProps {
  style: number;
  outline?: number;
  list: boolean;
  ilvl: number;
  intbl: boolean;
}

/**
 * Reads an RTF document (a small tokenizer of the RTF 1.9 syntax): text with `\par` paragraphs, `\uN` and
 * `\'hh` characters (code page from `\ansicpg`), tables (`\cell`, `\row`), list paragraphs (`\ls`, `\ilvl`),
 * paragraph styles by name from the `\stylesheet` and `\outlinelevel`. Font tables, pictures, fields'
 * instructions, headers, footers, footnotes and every `\*` destination it does not know are skipped.
 * Iterative (no recursion); `\binN` data is skipped by length.
 *
 * @throws HierdocError E_PARSE when the text does not start with `{\rtf` or groups nest deeper than `maxDepth`.
 */
export function readRtf(path: string, source: string, limits: RtfLimits = {}): RtfDocument {
  const maxDepth = limits.maxDepth ?? 256;
  if (!/^\s*\{\\rtf/.test(source.slice(0, 64))) throw fileError("E_PARSE", path, "not an RTF document: it does not start with {\\rtf");
  let decoder = new TextDecoder("windows-1252");
  const styles = new Map<number, { name: string; outline?: number }>();
  const blocks: RtfBlock[] = [];
  const stack: GroupState[] = [];
  let state: GroupState = { skip: false, uc: 1, styleDef: false, info: null };
  let stylesheetDepth = -1;
  let style = { text: "", num: 0, outline: undefined as number | undefined };
  let text = "";
  let infoTitle = "";
  let pending: number[] = [];
  let skipChars = 0;
  let para: ParagraphProps = { style: 0, list: false, ilvl: 0, intbl: false };
  let cells: string[] = [];

  const sink = (s: string): void => {
    if (state.skip) return;
    if (state.styleDef) style.text += s;
    else if (state.info === "title") infoTitle += s;
    else if (state.info === null) text += s;
  };
  const flushBytes = (): void => {
    if (pending.length === 0) return;
    const s = decoder.decode(new Uint8Array(pending));
    pending = [];
    sink(s);
  };
  const emit = (s: string): void => {
    flushBytes();
    sink(s);
  };
  const endParagraph = (): void => {
    flushBytes();
    if (para.intbl) {
      text += " ";
      return;
    }
    const clean = text.replace(/[ \t\u00a0]+/g, " ").replace(/ ?\n ?/g, "\n").trim();
    text = "";
    if (clean === "") return;
    const st = styles.get(para.style);
    const outline = para.outline ?? st?.outline;
    blocks.push({
      kind: "paragraph",
      text: clean,
      ...(st ? { style: st.name } : {}),
      ...(outline !== undefined ? { outlineLevel: outline } : {}),
      ...(para.list ? { listLevel: para.ilvl } : {}),
    });
  };

  let i = source.indexOf("{");
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === "{") {
      flushBytes();
      stack.push(state);
      if (stack.length > maxDepth) throw fileError("E_PARSE", path, `RTF groups nested deeper than ${maxDepth}`);
      state = { ...state };
      if (stylesheetDepth >= 0 && stack.length === stylesheetDepth + 1) {
        state = { ...state, skip: false, styleDef: true };
        style = { text: "", num: 0, outline: undefined };
      }
      i++;
    } else if (c === "}") {
      flushBytes();
      if (state.styleDef && stylesheetDepth >= 0 && stack.length === stylesheetDepth + 1) {
        const name = style.text.replace(/;\s*$/, "").trim();
        if (name) styles.set(style.num, { name, ...(style.outline !== undefined ? { outline: style.outline } : {}) });
      }
      if (stack.length === stylesheetDepth) stylesheetDepth = -1;
      const parent = stack.pop();
      if (parent === undefined) break;
      state = parent;
      i++;
    } else if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (/[a-zA-Z]/.test(next)) {
        let j = i + 1;
        while (j < n && j - i < 34 && /[a-zA-Z]/.test(source[j])) j++;
        const word = source.slice(i + 1, j);
        let k = j;
        if (source[k] === "-" || /\d/.test(source[k] ?? "")) {
          k++;
          while (k < n && k - j < 11 && /\d/.test(source[k])) k++;
        }
        const param = k > j ? Number(source.slice(j, k)) : undefined;
        if (source[k] === " ") k++;
        i = k;
        if (word === "bin") {
          i += Math.max(0, param ?? 0);
          continue;
        }
        if (word === "u" && param !== undefined) {
          emit(String.fromCharCode(param < 0 ? param + 65536 : param));
          skipChars = state.uc;
          continue;
        }
        if (skipChars > 0) {
          skipChars--;
          continue;
        }
        if (word === "ansicpg" && param !== undefined) decoder = codePage(param, decoder);
        else if (word === "title" && state.info === "info") state = { ...state, info: "title", skip: false };
        else if (SKIP.has(word)) {
          flushBytes();
          state.skip = true;
        } else if (state.skip) continue;
        else command(word, param);
      } else if (next === "'") {
        const hex = source.slice(i + 2, i + 4);
        i += 4;
        if (skipChars > 0) {
          skipChars--;
          continue;
        }
        if (/^[0-9a-fA-F]{2}$/.test(hex)) pending.push(parseInt(hex, 16));
      } else {
        i += 2;
        if (skipChars > 0 && next !== "*") {
          skipChars--;
          continue;
        }
        if (next === "*") state.skip = true;
        else if (next === "~") emit("\u00a0");
        else if (next === "_") emit("\u2011");
        else if (next === "\\" || next === "{" || next === "}") emit(next);
        else if (next === "\n" || next === "\r") endParagraph();
      }
    } else if (c === "\r" || c === "\n") {
      i++;
    } else {
      let j = i;
      while (j < n && source[j] !== "\\" && source[j] !== "{" && source[j] !== "}" && source[j] !== "\r" && source[j] !== "\n") j++;
      let chunk = source.slice(i, j);
      if (skipChars > 0) {
        const drop = Math.min(skipChars, chunk.length);
        skipChars -= drop;
        chunk = chunk.slice(drop);
      }
      if (chunk !== "") emit(chunk);
      i = j;
    }
  }
  endParagraph();
  const title = infoTitle.replace(/\s+/g, " ").trim();
  return { blocks, ...(title ? { title } : {}) };

  function command(word: string, param: number | undefined): void {
    switch (word) {
      case "stylesheet":
        stylesheetDepth = stack.length;
        state.skip = true;
        return;
      case "info":
        state.info = "info";
        return;
      case "uc":
        state.uc = param ?? 1;
        return;
      case "s":
        if (state.styleDef) style.num = param ?? 0;
        else para.style = param ?? 0;
        return;
      case "outlinelevel":
        if (state.styleDef) style.outline = param;
        else para.outline = param;
        return;
      case "pard":
        para = { style: 0, list: false, ilvl: 0, intbl: false };
        return;
      case "ls":
        if (!state.styleDef) para.list = true;
        return;
      case "ilvl":
        if (!state.styleDef) para.ilvl = param ?? 0;
        return;
      case "intbl":
        para.intbl = true;
        return;
      case "par":
      case "sect":
      case "page":
        endParagraph();
        return;
      case "cell":
        flushBytes();
        cells.push(text.replace(/\s+/g, " ").trim());
        text = "";
        return;
      case "row":
        flushBytes();
        text = "";
        if (cells.some((x) => x !== "")) blocks.push({ kind: "row", cells });
        cells = [];
        return;
      default:
        if (SYMBOLS[word] !== undefined && !state.styleDef) emit(SYMBOLS[word]);
    }
  }
}

function codePage(cp: number, fallback: TextDecoder): TextDecoder {
  try {
    return new TextDecoder(cp === 65001 ? "utf-8" : `windows-${cp}`);
  } catch {
    return fallback;
  }
}
