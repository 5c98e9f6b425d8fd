import { createRequire } from "node:module";
import type * as TreeSitter from "@vscode/tree-sitter-wasm";
import type { CodeLanguage } from "./code-languages.js";

type TsModule = typeof TreeSitter;
type SyntaxNode = TreeSitter.Node;

/** One definition of a source file: a section of the converted document. */
export interface CodeDefinition {
  /** Section title: the qualified name (`Parser.parse`, `Shape::area`, `impl Display for Point`). */
  title: string;
  /** Prefix for member titles (`Parser`, `Point`). */
  qualifier: string;
  /** 0-based first line (leading comments and decorators included) and last line, inclusive. */
  startRow: number;
  endRow: number;
  children: CodeDefinition[];
}

let runtime: Promise<{ ts: TsModule; dir: string }> | undefined;
const languages = new Map<string, Promise<TreeSitter.Language>>();

/** Loads the tree-sitter WASM runtime once per process, from the files inside the npm package (no download). */
function loadRuntime(): Promise<{ ts: TsModule; dir: string }> {
  runtime ??= (async () => {
    const require = createRequire(import.meta.url);
    const main = require.resolve("@vscode/tree-sitter-wasm");
    const dir = main.slice(0, main.lastIndexOf("/") + 1);
    const ts = require(main) as TsModule;
    await ts.Parser.init({ locateFile: (file: string) => dir + file });
    return { ts, dir };
  })();
  runtime.catch(() => (runtime = undefined));
  return runtime;
}

async function loadLanguage(grammar: string): Promise<{ ts: TsModule; language: TreeSitter.Language }> {
  const { ts, dir } = await loadRuntime();
  let lang = languages.get(grammar);
  if (!lang) {
    lang = ts.Language.load(`${dir}tree-sitter-${grammar}.wasm`);
    languages.set(grammar, lang);
    lang.catch(() => languages.delete(grammar));
  }
  return { ts, language: await lang };
}

/** The name a C/C++ declarator declares (`Shape::area`, `dup`, `operator==`). */
function declaratorName(node: SyntaxNode | null): string | undefined {
  for (let n = node, depth = 0; n && depth < 16; depth++) {
    if (/identifier$|^destructor_name$|^operator_name$/.test(n.type)) return n.text;
    n = n.childForFieldName("declarator") ?? n.namedChildren.find((c) => c !== null && /declarator|identifier/.test(c.type)) ?? null;
  }
  return undefined;
}

/** True when a C/C++ declarator declares a function (a prototype: `int add(int, int);`). */
function declaresFunction(node: SyntaxNode | null): boolean {
  for (let n = node, depth = 0; n && depth < 16; depth++) {
    if (n.type === "function_declarator") return true;
    n = n.childForFieldName("declarator");
  }
  return false;
}

const VALUE_KINDS = new Set(["arrow_function", "function_expression", "function", "generator_function", "class", "class_expression"]);

/** Title and member qualifier of a definition node, or undefined when it defines nothing nameable. */
function label(node: SyntaxNode, lang: CodeLanguage): { title: string; qualifier: string } | undefined {
  if (lang.valueDefinitions?.includes(node.type)) {
    const decl = node.namedChildren.find((c) => c?.type === "variable_declarator");
    const value = decl?.childForFieldName("value");
    const name = decl?.childForFieldName("name");
    return value && name && VALUE_KINDS.has(value.type) ? { title: name.text, qualifier: name.text } : undefined;
  }
  if (node.type === "impl_item") {
    const type = node.childForFieldName("type")?.text;
    const trait = node.childForFieldName("trait")?.text;
    if (!type) return undefined;
    return { title: trait ? `impl ${trait} for ${type}` : `impl ${type}`, qualifier: type };
  }
  if (node.type === "type_declaration") {
    const spec = node.namedChildren.find((c) => c?.type === "type_spec" || c?.type === "type_alias");
    const name = spec?.childForFieldName("name")?.text;
    return name ? { title: name, qualifier: name } : undefined;
  }
  if (node.type === "method_declaration" && lang.id === "go") {
    const name = node.childForFieldName("name")?.text;
    const receiver = /([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*$/.exec(node.childForFieldName("receiver")?.text ?? "")?.[1];
    return name ? { title: receiver ? `${receiver}.${name}` : name, qualifier: name } : undefined;
  }
  if (node.type === "type_definition" && !node.childForFieldName("type")?.childForFieldName("body")) return undefined;
  if (node.type === "declaration" && !declaresFunction(node.childForFieldName("declarator"))) return undefined;
  if (/_specifier$/.test(node.type) && !node.childForFieldName("body")) return undefined;
  const name = node.childForFieldName("name")?.text ?? declaratorName(node.childForFieldName("declarator"));
  return name ? { title: name.replace(/\s+/g, " "), qualifier: name } : undefined;
}

/** Last line a node covers (a node that ends at column 0 ends on the line before). */
function lastRow(node: SyntaxNode): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row - 1 : row;
}

/** The definition a wrapper holds (decorated function, exported class, template), or undefined. */
function unwrap(node: SyntaxNode, lang: CodeLanguage): SyntaxNode | undefined {
  let n: SyntaxNode | undefined = node;
  for (let depth = 0; n && lang.wrappers.includes(n.type) && depth < 8; depth++) {
    const inner: SyntaxNode | null | undefined =
      n.childForFieldName("definition") ??
      n.childForFieldName("declaration") ??
      n.namedChildren.find((c) => c !== null && (lang.definitions.includes(c.type) || lang.wrappers.includes(c.type)));
    n = inner ?? undefined;
  }
  return n && lang.definitions.includes(n.type) ? n : undefined;
}

function membersOf(node: SyntaxNode): SyntaxNode[] {
  const body = node.childForFieldName("body");
  return ((body ?? node).namedChildren as (SyntaxNode | null)[]).filter((c): c is SyntaxNode => c !== null);
}

/** `nodes` with transparent groups (`#ifdef` blocks, `extern "C" {}`) replaced by their children, recursively. */
function flatten(nodes: SyntaxNode[], lang: CodeLanguage, depth = 0): SyntaxNode[] {
  if (!lang.transparent || depth > 32) return nodes;
  const out: SyntaxNode[] = [];
  for (const n of nodes) {
    if (!lang.transparent.includes(n.type)) out.push(n);
    else {
      const inner = n.childForFieldName("body") ?? n;
      const kids = (inner.namedChildren as (SyntaxNode | null)[]).filter((c): c is SyntaxNode => c !== null && c.id !== n.childForFieldName("condition")?.id);
      out.push(...flatten(kids, lang, depth + 1));
    }
  }
  return out;
}

function collect(raw: SyntaxNode[], lang: CodeLanguage, prefix: string, depth: number, maxDepth: number): CodeDefinition[] {
  const nodes = flatten(raw, lang);
  const out: CodeDefinition[] = [];
  let commentStart: number | undefined;
  let commentEnd = -2;
  for (const node of nodes) {
    if (lang.comments.includes(node.type)) {
      if (commentStart === undefined || node.startPosition.row > commentEnd + 1) commentStart = node.startPosition.row;
      commentEnd = node.endPosition.row;
      continue;
    }
    const def = unwrap(node, lang);
    const named = def && label(def, lang);
    if (def && named) {
      const start = commentStart !== undefined && commentEnd >= node.startPosition.row - 1 ? commentStart : node.startPosition.row;
      const title = prefix && !named.title.includes(lang.separator) ? `${prefix}${lang.separator}${named.title}` : named.title;
      const qualifier = prefix ? `${prefix}${lang.separator}${named.qualifier}` : named.qualifier;
      const members =
        lang.containers.includes(def.type) && depth < maxDepth ? collect(membersOf(def), lang, qualifier, depth + 1, maxDepth) : [];
      // Members on the container's first line (`class A { void f() {} }`) leave it a single section.
      const children = members.some((m) => m.startRow <= start || m.startRow <= def.startPosition.row) ? [] : members;
      out.push({ title, qualifier, startRow: start, endRow: lastRow(node), children });
    }
    commentStart = undefined;
    commentEnd = -2;
  }
  return out.filter((d, i) => i === 0 || d.startRow > out[i - 1].endRow);
}

/**
 * Parses `source` with the language's tree-sitter grammar (WASM, loaded from the npm package once per
 * process) and returns its top-level definitions, members nested under their class/impl/namespace down
 * to `maxDepth` levels. Definitions never overlap and are in source order. Syntax errors do not throw:
 * tree-sitter recovers and the definitions it still recognises are returned.
 *
 * @throws Error when the WASM runtime or grammar cannot be loaded.
 */
export async function outlineCode(source: string, lang: CodeLanguage, maxDepth = 3): Promise<CodeDefinition[]> {
  const { ts, language } = await loadLanguage(lang.grammar);
  const parser = new ts.Parser();
  try {
    parser.setLanguage(language);
    const tree = parser.parse(source);
    if (!tree) throw new Error("tree-sitter returned no tree");
    try {
      const top = (tree.rootNode.namedChildren as (SyntaxNode | null)[]).filter((c): c is SyntaxNode => c !== null);
      return collect(top, lang, "", 0, maxDepth);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}
