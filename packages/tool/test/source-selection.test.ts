import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  describeSkipped,
  expandSources,
  looksLikeText,
  summarizeSkipped,
} from "@hierdoc/tool";
import { SUPPORTED_EXTENSIONS } from "@hierdoc/convert";
import { perTestScratch } from "./helpers.js";

/** A folder with documents, source code, an unknown text file, binaries and a dot-folder. */
function mixedFolder(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "hierdoc-select-"));
  mkdirSync(join(dir, "src", "deep"), { recursive: true });
  mkdirSync(join(dir, "bin"));
  mkdirSync(join(dir, ".git"));
  writeFileSync(join(dir, "rules.md"), "# Rules\n\n## 1. Scope\n\nThese rules apply.\n");
  writeFileSync(join(dir, "notes.txt"), "Plain notes.\n");
  writeFileSync(join(dir, "src", "a.qq"), "def a():\n    return 1\n");
  writeFileSync(join(dir, "src", "deep", "b.qq"), "class B:\n    pass\n");
  writeFileSync(join(dir, "src", "c.weird"), "int main() { return 0; }\n");
  writeFileSync(join(dir, "src", "latin1.weird"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café" in latin1: not UTF-8
  writeFileSync(join(dir, "bin", "blob.dat"), Buffer.from([0x01, 0x00, 0x02, 0x03]));
  writeFileSync(join(dir, "bin", "img.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]));
  writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe("looksLikeText", () => {
  it("accepts UTF-8 (with a BOM or a character cut at the end of a truncated read) and refuses NULs and invalid bytes", () => {
    const utf8 = new TextEncoder().encode("\uFEFFparagraph § 4 — café");
    expect(looksLikeText(utf8)).toBe(true);
    const cut = utf8.subarray(0, utf8.length - 1); // "é" is two bytes: one left
    expect(looksLikeText(cut, true)).toBe(true);
    expect(looksLikeText(cut, false)).toBe(false);
    expect(looksLikeText(new Uint8Array([0x61, 0x00, 0x62]))).toBe(false);
    expect(looksLikeText(new Uint8Array([0x63, 0xe9, 0x0a]))).toBe(false);
  });
});

describe("expandSources: what a folder takes and what it skips", () => {
  let f: ReturnType<typeof mixedFolder>;
  afterEach(() => f?.cleanup());

  it("takes the converters' extensions by default and lists every other file with its reason", async () => {
    f = mixedFolder();
    const out = await expandSources([f.dir], { extensions: SUPPORTED_EXTENSIONS });
    expect(out.files.map((p) => p.slice(f.dir.length + 1))).toEqual(["notes.txt", "rules.md"]);
    expect(out.skipped.map((s) => [s.path.slice(f.dir.length + 1), s.reason, s.text])).toEqual([
      ["bin/blob.dat", "unsupported-extension", false],
      ["bin/img.png", "unsupported-extension", false],
      ["src/a.qq", "unsupported-extension", true],
      ["src/c.weird", "unsupported-extension", true],
      ["src/deep/b.qq", "unsupported-extension", true],
      ["src/latin1.weird", "unsupported-extension", false],
    ]);
    expect(out.errors).toEqual([]);
  });

  it("takes included text files of any extension (a name glob at any depth, a path glob from the folder), never binaries", async () => {
    f = mixedFolder();
    const out = await expandSources([f.dir], { include: ["*.qq", "src/*.weird", "bin/*"], extensions: SUPPORTED_EXTENSIONS });
    const rel = (p: string) => p.slice(f.dir.length + 1);
    expect(out.files.map(rel)).toEqual(["notes.txt", "rules.md", "src/a.qq", "src/c.weird", "src/deep/b.qq"]);
    expect(out.skipped.map((s) => [rel(s.path), s.reason])).toEqual([
      ["bin/blob.dat", "not-text"],
      ["bin/img.png", "not-text"],
      ["src/latin1.weird", "not-text"],
    ]);
  });

  it("exclude wins over include and over supported extensions", async () => {
    f = mixedFolder();
    const out = await expandSources([f.dir], { include: ["*.qq"], exclude: ["deep/**", "src/deep/**", "notes.txt"], extensions: SUPPORTED_EXTENSIONS });
    const rel = (p: string) => p.slice(f.dir.length + 1);
    expect(out.files.map(rel)).toEqual(["rules.md", "src/a.qq"]);
    const reasons = Object.fromEntries(out.skipped.map((s) => [rel(s.path), s.reason]));
    expect(reasons["notes.txt"]).toBe("excluded");
    expect(reasons["src/deep/b.qq"]).toBe("excluded");
  });

  it("a glob source takes the text files it matches whatever their extension, and skips binaries it matches", async () => {
    f = mixedFolder();
    const out = await expandSources([join(f.dir, "**", "*.{qq,dat}")], { extensions: SUPPORTED_EXTENSIONS });
    const rel = (p: string) => p.slice(f.dir.length + 1);
    expect(out.files.map(rel)).toEqual(["src/a.qq", "src/deep/b.qq"]);
    expect(out.skipped.map((s) => [rel(s.path), s.reason])).toEqual([["bin/blob.dat", "not-text"]]);
  });

  it("leaves empty files of a folder out as 'empty' (an empty __init__.py is not a failure), but takes a named one", async () => {
    f = mixedFolder();
    writeFileSync(join(f.dir, "src", "__init__.py"), "");
    writeFileSync(join(f.dir, "blank.md"), "");
    const out = await expandSources([f.dir], { extensions: SUPPORTED_EXTENSIONS });
    const rel = (p: string) => p.slice(f.dir.length + 1);
    expect(out.files.map(rel)).toEqual(["notes.txt", "rules.md"]);
    const reasons = Object.fromEntries(out.skipped.map((s) => [rel(s.path), s.reason]));
    expect(reasons["blank.md"]).toBe("empty");
    expect(reasons["src/__init__.py"]).toBe("empty");
    const named = await expandSources([join(f.dir, "blank.md")], { extensions: SUPPORTED_EXTENSIONS });
    expect(named.files).toEqual([join(f.dir, "blank.md")]);
  });

  it("a file named explicitly is always taken", async () => {
    f = mixedFolder();
    const out = await expandSources([join(f.dir, "src", "c.weird")], { exclude: ["*.weird"] });
    expect(out.files).toEqual([join(f.dir, "src", "c.weird")]);
    expect(out.skipped).toEqual([]);
  });

  it("takes the extensions it is given (every file when none are given)", async () => {
    f = mixedFolder();
    expect(SUPPORTED_EXTENSIONS).toEqual(expect.arrayContaining([".md", ".txt", ".pdf", ".docx", ".html", ".xml"]));
    const onlyMd = await expandSources([f.dir], { extensions: [".md"] });
    expect(onlyMd.files.map((p) => p.slice(f.dir.length + 1))).toEqual(["rules.md"]);
    expect(onlyMd.skipped.some((s) => s.path.endsWith("notes.txt") && s.reason === "unsupported-extension")).toBe(true);
    const all = await expandSources([f.dir]);
    expect(all.files).toHaveLength(8);
    expect(all.skipped).toEqual([]);
  });
});

describe("summarizeSkipped / describeSkipped", () => {
  it("counts by reason and extension (most frequent first), keeps the first paths, and hints at --include", () => {
    const skipped = [
      { path: "a/x.py", reason: "unsupported-extension" as const, text: true },
      { path: "a/y.py", reason: "unsupported-extension" as const, text: true },
      { path: "a/z.rs", reason: "unsupported-extension" as const, text: true },
      { path: "a/z.bin", reason: "unsupported-extension" as const, text: false },
      { path: "b/blob", reason: "not-text" as const },
      { path: "c/old.md", reason: "excluded" as const },
    ];
    const s = summarizeSkipped(skipped, 2);
    expect(s).toEqual({
      total: 6,
      byReason: { "unsupported-extension": 4, "not-text": 1, excluded: 1 },
      byExtension: { ".py": 2, "(none)": 1, ".bin": 1, ".md": 1, ".rs": 1 },
      examples: skipped.slice(0, 2),
      unsupportedText: 3,
      topUnsupportedExtension: ".py",
    });
    expect(Object.keys(s.byExtension)[0]).toBe(".py");
    const lines = describeSkipped(s);
    expect(lines[0]).toBe(
      "skipped 6 files (4 no converter for the extension (3 of them text), 1 not text, 1 excluded): .py 2, (none) 1, .bin 1, .md 1, .rs 1; e.g. a/x.py, a/y.py",
    );
    expect(lines[1]).toContain("--include '*.py'");
    expect(describeSkipped(summarizeSkipped([{ path: "a/z.bin", reason: "unsupported-extension", text: false }]))).toHaveLength(1);
    expect(describeSkipped(summarizeSkipped([]))).toEqual([]);
    expect(describeSkipped(summarizeSkipped([{ path: "c/old.md", reason: "excluded" }]))).toHaveLength(1);
  });
});

describe("ingest reports skipped files and honours include / exclude", () => {
  const scratch = perTestScratch();

  it("accounts for every file: ingested files in `files`, the rest in `skipped`; config and per-run globs add up", async () => {
    const ws = scratch.workspace();
    writeFileSync(join(ws.docs, "tool.qq"), "def run():\n    return 'ok'\n");
    writeFileSync(join(ws.docs, "tool.yy"), "fn run() {}\n");
    writeFileSync(join(ws.docs, "blob.bin"), Buffer.from([0, 1, 2, 3]));
    const tool = await scratch.open(ws.index, { include: ["*.qq"] });
    const report = await tool.ingest([ws.docs], { include: ["*.bin"] });
    const added = report.files.filter((x) => x.outcome === "added").map((x) => x.sourcePath.slice(ws.docs.length + 1));
    expect(added).toEqual(["community-garden-rules.txt", "harbour-data-act.md", "pumpstation-manual.md", "tool.qq"]);
    expect(report.skipped.map((s) => [s.path.slice(ws.docs.length + 1), s.reason])).toEqual([
      ["blob.bin", "not-text"],
      ["tool.yy", "unsupported-extension"],
    ]);
    expect(report.files.length + report.skipped.length).toBe(6);
    expect((await tool.search("run", { mode: "keyword" })).results.some((r) => r.sourcePath.endsWith("tool.qq"))).toBe(true);
  });

  it("removes a file an exclude glob now names, keeps a file skipped only for its extension that was named explicitly", async () => {
    const ws = scratch.workspace();
    const odd = join(ws.docs, "extra.weird");
    writeFileSync(odd, "Extra notes about valves.\n");
    const tool = await scratch.open(ws.index);
    await tool.ingest([ws.docs]);
    await tool.ingest([odd]);
    expect(tool.sources()).toContain(odd);
    const again = await tool.ingest([ws.docs], { exclude: ["pumpstation-*"] });
    expect(again.files.filter((x) => x.outcome === "removed").map((x) => x.sourcePath)).toEqual([join(ws.docs, "pumpstation-manual.md")]);
    expect(tool.sources()).toContain(odd);
    unlinkSync(odd);
    const gone = await tool.ingest([ws.docs], { exclude: ["pumpstation-*"] });
    expect(gone.files.filter((x) => x.outcome === "removed").map((x) => x.sourcePath)).toEqual([odd]);
  });

  it("an all-skipped folder reports every file as skipped and ingests none", async () => {
    const ws = scratch.workspace();
    const tool = await scratch.open(ws.index);
    const report = await tool.ingest([ws.docs], { exclude: ["*"] });
    expect(report.files).toEqual([]);
    expect(report.skipped.map((s) => s.reason)).toEqual(["excluded", "excluded", "excluded"]);
  });
});
