import { codePointLength, codePointPrefix, countWords, hasNonWhitespace, normalizeText, pathStem, pyRound } from "@hierdoc/eval";

describe("Python-compatible helpers", () => {
  it("normalises like score_obliqa.norm: NFKC, bidi marks, Python whitespace, lower case", () => {
    expect(normalizeText("  Ｆｕｌｌ\u00a0WIDTH\u200e\tand\x1ctabs\n")).toBe("full width and tabs");
    expect(normalizeText("ﬁne")).toBe("fine");
    // U+FEFF is whitespace for JavaScript's \s but not for Python: it must survive.
    expect(normalizeText("a\ufeffb")).toBe("a\ufeffb");
    expect(normalizeText(null)).toBe("");
    expect(normalizeText(undefined)).toBe("");
  });

  it("counts words and strips like str.split() / str.strip()", () => {
    expect(countWords("one  two\u3000three\x85four\ufefffive")).toBe(4);
    expect(countWords("")).toBe(0);
    expect(hasNonWhitespace(" \x1d\u2028 ")).toBe(false);
    expect(hasNonWhitespace(" \ufeff ")).toBe(true);
  });

  it("measures and slices by code points", () => {
    expect(codePointLength("a😀b")).toBe(3);
    expect(codePointPrefix("😀😀😀", 2)).toBe("😀😀");
    expect(codePointPrefix("abc", 5)).toBe("abc");
  });

  it("takes the file stem like os.path.splitext(os.path.basename(p))[0]", () => {
    expect(pathStem("/x/y/AML_VER09.211223.txt")).toBe("aml_ver09.211223");
    expect(pathStem("GPM VER03.120623.md")).toBe("gpm ver03.120623");
    expect(pathStem("/x/.hidden")).toBe(".hidden");
    expect(pathStem("/x/..txt")).toBe("..txt");
    expect(pathStem("noext")).toBe("noext");
    expect(pathStem(null)).toBe("");
  });

  it("rounds like Python round(): exact binary value, ties to even", () => {
    expect(pyRound(0.03125, 4)).toBe(0.0312);
    expect(pyRound(0.09375, 4)).toBe(0.0938);
    expect(pyRound(2.675, 2)).toBe(2.67);
    expect(pyRound(0.5, 0)).toBe(0);
    expect(pyRound(1.5, 0)).toBe(2);
    expect(pyRound(0.123456, 4)).toBe(0.1235);
    expect(pyRound(370.25, 1)).toBe(370.2);
    expect(pyRound(-0.03125, 4)).toBe(-0.0312);
    expect(pyRound(0, 4)).toBe(0);
  });
});
