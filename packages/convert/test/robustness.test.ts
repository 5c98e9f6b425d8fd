import { HierdocError } from "@hierdoc/core";
import { convertFile, readRtf } from "@hierdoc/convert";
import fc from "fast-check";
import { headingLines, utf8 } from "./helpers.js";

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

const RTF_TOKENS = [
  "{", "}", "\\par ", "\\pard", "\\s1 ", "\\outlinelevel0 ", "\\ls1", "\\ilvl2 ", "\\intbl ", "\\cell ", "\\row ",
  "\\u8364?", "\\uc0 ", "\\'e9", "\\*", "\\fonttbl ", "\\stylesheet ", "\\bin3 ", "\\tab ", "\\~", "text ", "Heading 1;", "\n",
];

const PY_LINES = [
  "import os", "", "class A:", "    x = 1", "    def f(self):", "        return 1", "def g():", "    pass", "# note",
  "@decorator", "if x:", "    g()", "    class B:", "        def h(self): ...", "print('#')", "```",
];

const CPP_LINES = [
  "#include <x.h>", "#ifndef G", "#define G", "#endif", "namespace n {", "}", "class C {", " public:", "  int f() { return 1; }",
  "};", "int add(int a, int b);", "static int g(void) { return 0; }", "struct S { int x; };", "// c", "template <typename T>",
  "T id(T t) { return t; }", 'extern "C" {',
];

describe("converters on generated input", () => {
  it("the RTF reader returns blocks or fails with E_PARSE, and never lets a control word into the text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...RTF_TOKENS), { maxLength: 80 }), (tokens) => {
        const source = `{\\rtf1 ${tokens.join("")}}`;
        try {
          const doc = readRtf("gen.rtf", source);
          for (const b of doc.blocks) {
            const texts = b.kind === "row" ? b.cells : [b.text];
            for (const t of texts) expect(t).not.toMatch(/\\[a-z]/);
          }
        } catch (err) {
          expect(err).toBeInstanceOf(HierdocError);
          expect((err as HierdocError).code).toBe("E_PARSE");
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ["gen.py", PY_LINES],
    ["gen.cpp", CPP_LINES],
  ])("the code converter keeps every non-blank line of %s, in order, inside fences", async (path, pool) => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 30 }), async (lines) => {
        const source = `${lines.join("\n")}\n`;
        if (source.trim() === "") return;
        const doc = await convertFile(path, utf8(source));
        expect(fencedLines(doc.text).filter((l) => l.trim() !== "")).toEqual(lines.filter((l) => l.trim() !== ""));
        expect(headingLines(doc.text)[0]).toBe(`# ${path}`);
      }),
      { numRuns: 60 },
    );
  });
});
