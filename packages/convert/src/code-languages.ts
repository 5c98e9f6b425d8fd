/**
 * How one programming language's syntax tree (tree-sitter grammar) maps to a document outline: which
 * nodes are definitions (a section each), which of them hold member definitions (classes, impls,
 * namespaces), which only wrap a definition (decorators, `export`, templates), and which are comments that
 * belong to the definition after them. Data, not code: add a language by adding an entry.
 */
export interface CodeLanguage {
  /** Language id (also the code fence info string). */
  id: string;
  /** Grammar file in `@vscode/tree-sitter-wasm` (`tree-sitter-${grammar}.wasm`). */
  grammar: string;
  /** File extensions, lower case, without the dot. */
  extensions: readonly string[];
  /** Node types that become a section. */
  definitions: readonly string[];
  /** Definitions whose members (found in the `body` field, else among their children) become subsections. */
  containers: readonly string[];
  /** Nodes that wrap one definition (its decorators, `export`, `template<…>` stay with it). */
  wrappers: readonly string[];
  /** Comment node types; comments right above a definition stay with it. */
  comments: readonly string[];
  /** Joins a container's name and a member's name in section titles (`Parser.parse`, `Shape::area`). */
  separator: string;
  /** Variable declarations that define a function or class (`const f = () => …`). */
  valueDefinitions?: readonly string[];
  /** Groups whose children count as siblings of the group (`#ifdef` blocks, include guards, `extern "C" {}`). */
  transparent?: readonly string[];
}

const C_FAMILY_COMMENTS = ["comment"] as const;

/** The languages the code converter outlines, with tree-sitter grammars shipped in `@vscode/tree-sitter-wasm`. */
export const CODE_LANGUAGES: readonly CodeLanguage[] = [
  {
    id: "python",
    grammar: "python",
    extensions: ["py", "pyi", "pyw"],
    definitions: ["function_definition", "class_definition"],
    containers: ["class_definition"],
    wrappers: ["decorated_definition"],
    comments: ["comment"],
    separator: ".",
  },
  {
    id: "typescript",
    grammar: "typescript",
    extensions: ["ts", "mts", "cts"],
    definitions: [
      "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration",
      "interface_declaration", "enum_declaration", "type_alias_declaration", "method_definition", "internal_module", "module",
      "lexical_declaration", "variable_declaration",
    ],
    containers: ["class_declaration", "abstract_class_declaration", "internal_module", "module"],
    wrappers: ["export_statement", "ambient_declaration", "expression_statement"],
    comments: C_FAMILY_COMMENTS,
    separator: ".",
    valueDefinitions: ["lexical_declaration", "variable_declaration"],
  },
  {
    id: "tsx",
    grammar: "tsx",
    extensions: ["tsx"],
    definitions: [
      "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration",
      "interface_declaration", "enum_declaration", "type_alias_declaration", "method_definition", "lexical_declaration",
      "variable_declaration",
    ],
    containers: ["class_declaration", "abstract_class_declaration"],
    wrappers: ["export_statement"],
    comments: C_FAMILY_COMMENTS,
    separator: ".",
    valueDefinitions: ["lexical_declaration", "variable_declaration"],
  },
  {
    id: "javascript",
    grammar: "javascript",
    extensions: ["js", "mjs", "cjs", "jsx"],
    definitions: [
      "function_declaration", "generator_function_declaration", "class_declaration", "method_definition",
      "lexical_declaration", "variable_declaration",
    ],
    containers: ["class_declaration"],
    wrappers: ["export_statement"],
    comments: C_FAMILY_COMMENTS,
    separator: ".",
    valueDefinitions: ["lexical_declaration", "variable_declaration"],
  },
  {
    id: "java",
    grammar: "java",
    extensions: ["java"],
    definitions: [
      "class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
      "annotation_type_declaration", "method_declaration", "constructor_declaration",
    ],
    containers: ["class_declaration", "enum_declaration", "record_declaration"],
    wrappers: [],
    comments: ["block_comment", "line_comment"],
    separator: ".",
  },
  {
    id: "rust",
    grammar: "rust",
    extensions: ["rs"],
    definitions: [
      "function_item", "struct_item", "enum_item", "union_item", "trait_item", "impl_item", "mod_item",
      "macro_definition",
    ],
    containers: ["impl_item", "mod_item", "trait_item"],
    wrappers: [],
    comments: ["line_comment", "block_comment"],
    separator: "::",
  },
  {
    id: "cpp",
    grammar: "cpp",
    extensions: ["c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++", "ipp", "inl"],
    definitions: [
      "function_definition", "class_specifier", "struct_specifier", "union_specifier", "enum_specifier", "namespace_definition",
      "type_definition", "declaration",
    ],
    containers: ["class_specifier", "struct_specifier", "namespace_definition"],
    wrappers: ["template_declaration"],
    comments: C_FAMILY_COMMENTS,
    separator: "::",
    transparent: ["preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef", "linkage_specification", "declaration_list"],
  },
  {
    id: "go",
    grammar: "go",
    extensions: ["go"],
    definitions: ["function_declaration", "method_declaration", "type_declaration"],
    containers: [],
    wrappers: [],
    comments: C_FAMILY_COMMENTS,
    separator: ".",
  },
  {
    id: "ruby",
    grammar: "ruby",
    extensions: ["rb", "rake", "gemspec"],
    definitions: ["class", "module", "method", "singleton_method", "singleton_class"],
    containers: ["class", "module", "singleton_class"],
    wrappers: [],
    comments: ["comment"],
    separator: ".",
  },
  {
    id: "csharp",
    grammar: "c-sharp",
    extensions: ["cs"],
    definitions: [
      "namespace_declaration", "class_declaration", "struct_declaration", "interface_declaration", "record_declaration",
      "enum_declaration", "method_declaration", "constructor_declaration", "destructor_declaration",
    ],
    containers: ["namespace_declaration", "class_declaration", "struct_declaration", "record_declaration"],
    wrappers: [],
    comments: ["comment"],
    separator: ".",
  },
  {
    id: "php",
    grammar: "php",
    extensions: ["php"],
    definitions: ["class_declaration", "interface_declaration", "trait_declaration", "enum_declaration", "function_definition", "method_declaration"],
    containers: ["class_declaration", "trait_declaration", "enum_declaration"],
    wrappers: [],
    comments: ["comment"],
    separator: "::",
  },
  {
    id: "bash",
    grammar: "bash",
    extensions: ["sh", "bash"],
    definitions: ["function_definition"],
    containers: [],
    wrappers: [],
    comments: ["comment"],
    separator: ".",
  },
];

/** Every file extension the code converter takes (lower case, without the dot). */
export const CODE_EXTENSIONS: readonly string[] = CODE_LANGUAGES.flatMap((l) => l.extensions);

/** The language of a file extension, or undefined. */
export function codeLanguageOf(extension: string): CodeLanguage | undefined {
  const ext = extension.toLowerCase();
  return CODE_LANGUAGES.find((l) => l.extensions.includes(ext));
}
