import { CodeConverter, CODE_LANGUAGES, convertFile } from "@hierdoc/convert";
import { expectFileError, headingLines, utf8 } from "./helpers.js";

const headings = headingLines;

/** The lines inside the fenced code blocks, in order. */
function fencedLines(md: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of md.split("\n")) {
    const f = /^(`{3,})/.exec(line);
    if (f && (fence === null || f[1] === fence)) fence = fence === null ? f[1] : null;
    else if (fence !== null) out.push(line);
  }
  return out;
}

const PYTHON = `import os

CONST = 1

# Parses things.
@dataclass
class Parser(Base):
    limit = 3

    def __init__(self, x):
        self.x = x

    @property
    def size(self):
        return 1

def main():
    pass

if __name__ == "__main__":
    main()
`;

describe("code converter", () => {
  it("outlines Python: the path as # heading, classes and functions as ##, methods as ### Class.method", async () => {
    const doc = await convertFile("src/parser.py", utf8(PYTHON));
    expect(doc).toMatchObject({ fileType: "code-python", format: "markdown", title: "parser.py" });
    expect(headings(doc.text)).toEqual([
      "# src/parser.py",
      "## Parser",
      "### Parser.__init__",
      "### Parser.size",
      "## main",
      "## top level (lines 20–21)",
    ]);
    expect(doc.text).toContain("## Parser\n\n```python\n# Parses things.\n@dataclass\nclass Parser(Base):\n    limit = 3\n```");
  });

  it("keeps every line of code verbatim and in order, and maps each block to its line range", async () => {
    const doc = await convertFile("src/parser.py", utf8(PYTHON));
    expect(fencedLines(doc.text).filter((l) => l.trim() !== "")).toEqual(PYTHON.split("\n").filter((l) => l.trim() !== ""));
    const lines = PYTHON.split("\n");
    for (const e of doc.sourceMap!) {
      const m = /^L(\d+)(?:-L(\d+))?$/.exec(e.anchor!)!;
      const span = doc.text.slice(e.start, e.end);
      if (!span.startsWith("```")) continue;
      const from = Number(m[1]);
      const to = Number(m[2] ?? m[1]);
      expect(span.split("\n").slice(1, -1)).toEqual(lines.slice(from - 1, to));
    }
  });

  const cases: Array<[string, string, string[]]> = [
    [
      "Account.java",
      "package a;\n/** Doc */\npublic class Account {\n  private int b;\n  public Account(int b) { this.b = b; }\n  public void deposit(int n) { b += n; }\n}\nenum Kind { A }\n",
      ["## Account", "### Account.Account", "### Account.deposit", "## Kind"],
    ],
    [
      "point.rs",
      "use std::fmt;\npub struct Point { x: i32 }\nimpl Point {\n    pub fn new(x: i32) -> Self { Point { x } }\n}\nimpl fmt::Display for Point {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n}\nfn main() {}\n",
      ["## Point", "## impl Point", "### Point::new", "## impl fmt::Display for Point", "### Point::fmt", "## main"],
    ],
    [
      "shape.cpp",
      "#include <vector>\nnamespace geo {\nclass Shape {\n public:\n  int sides() const { return 0; }\n};\ndouble Shape::area() const { return 0; }\n}\nstatic int add(int a, int b) { return a + b; }\n",
      ["## geo", "### geo::Shape", "#### geo::Shape::sides", "### Shape::area", "## add"],
    ],
    ["util.c", "#include <stdio.h>\nstruct S { int x; };\nchar *dup(const char *s) { return 0; }\nint main(void) { return 0; }\n", ["## S", "## dup", "## main"]],
    [
      "util.h",
      '#ifndef U\n#define U\n#ifdef __cplusplus\nextern "C" {\n#endif\n/* Adds. */\nint add(int a, int b);\ntypedef struct { int x; } pt;\ntypedef int myint;\n#ifdef __cplusplus\n}\n#endif\n#endif\n',
      ["## add", "## pt", "## top level (lines 9–13)"],
    ],
    [
      "server.go",
      "package main\ntype Server struct { port int }\nfunc (s *Server) Start() error { return nil }\nfunc main() {}\n",
      ["## Server", "## Server.Start", "## main"],
    ],
    [
      "invoice.rb",
      "module Billing\n  class Invoice\n    def initialize(total)\n      @total = total\n    end\n  end\nend\n",
      ["## Billing", "### Billing.Invoice", "#### Billing.Invoice.initialize"],
    ],
    [
      "Order.cs",
      "namespace App {\n  public class Order {\n    public Order(int id) { }\n    public decimal Total() { return 0; }\n  }\n}\n",
      ["## App", "### App.Order", "#### App.Order.Order", "#### App.Order.Total"],
    ],
    [
      "store.ts",
      "import { x } from \"y\";\nexport class Store<T> {\n  get(id: string): T { return null!; }\n}\nexport const toMeters = (f: number) => f * 0.3;\nconst n = 1;\ntype Id = string;\n",
      ["## Store", "### Store.get", "## toMeters", "## top level (line 6)", "## Id"],
    ],
    ["app.js", "function a() {}\nclass B {\n  c() {}\n}\nmodule.exports = { a, B };\n", ["## a", "## B", "### B.c", "## top level (line 5)"]],
    ["deploy.sh", "#!/bin/sh\nset -e\nbuild() {\n  make\n}\nfunction ship {\n  scp a b\n}\nbuild && ship\n", ["## build", "## ship", "## top level (line 9)"]],
    ["user.php", "<?php\nclass User {\n  public function name() { return 1; }\n}\nfunction helper() {}\n", ["## User", "### User::name", "## helper"]],
  ];

  it.each(cases)("outlines %s", async (path, source, expected) => {
    const doc = await convertFile(path, utf8(source));
    expect(headings(doc.text).slice(1)).toEqual(expected);
    expect(headings(doc.text)[0]).toBe(`# ${path}`);
    expect(fencedLines(doc.text).filter((l) => l.trim() !== "")).toEqual(source.split("\n").filter((l) => l.trim() !== ""));
  });

  it("covers every language it lists with a grammar that loads", async () => {
    for (const lang of CODE_LANGUAGES) {
      const doc = await convertFile(`x.${lang.extensions[0]}`, utf8("x\n"));
      expect(doc.fileType).toBe(`code-${lang.id}`);
    }
  });

  it("fences code containing ``` with a longer fence", async () => {
    const doc = await convertFile("doc.py", utf8('def f():\n    return """\n```\n"""\n'));
    expect(doc.text).toContain("````python\ndef f():");
  });

  it("does not outline files over maxOutlineChars: one fenced block under the path", async () => {
    const doc = await new CodeConverter({ maxOutlineChars: 10 }).convert({ path: "big.py", bytes: utf8(PYTHON) });
    expect(headings(doc.text)).toEqual(["# big.py"]);
  });

  it("fails with E_INPUT_EMPTY for an empty file and E_INPUT_BINARY for binary bytes", async () => {
    await expectFileError(() => convertFile("e.py", utf8("  \n")), "E_INPUT_EMPTY", "e.py");
    await expectFileError(() => convertFile("b.go", new Uint8Array([0x70, 0, 0, 1, 2])), "E_INPUT_BINARY", "b.go");
  });
});
