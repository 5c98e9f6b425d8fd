import { convertFile, htmlToMarkdown } from "@hierdoc/convert";
import { expectFileError, utf8 } from "./helpers.js";

const page = `<!DOCTYPE html><html><head><title>Rulebook</title><style>h1{color:red}</style>
<script>document.write("evil")</script></head><body>
<h1>Part 1 General</h1><p>Intro <b>bold</b> text.</p>
<h2>1.1 Scope</h2><ul><li>first</li><li>second</li></ul>
<h3>1.1.1 Terms</h3><table><tr><th>Term</th><th>Meaning</th></tr><tr><td>A|B</td><td>x</td></tr></table>
<noscript>enable js</noscript><iframe src="x"></iframe></body></html>`;

describe("HTML converter", () => {
  it("turns h1…h6 into ATX headings and keeps text, lists and tables", async () => {
    const doc = await convertFile("site/page.html", utf8(page));
    expect(doc).toMatchObject({ fileType: "html", format: "markdown", title: "Rulebook" });
    const headings = doc.text.split("\n").filter((l) => l.startsWith("#"));
    expect(headings).toEqual(["# Part 1 General", "## 1.1 Scope", "### 1.1.1 Terms"]);
    expect(doc.text).toContain("Intro **bold** text.");
    expect(doc.text).toMatch(/^- first$/m);
    expect(doc.text).toContain("| Term | Meaning |\n| --- | --- |\n| A\\|B | x |");
  });

  it("drops scripts, styles, noscript and iframes", async () => {
    const doc = await convertFile("page.htm", utf8(page));
    for (const bad of ["evil", "color:red", "enable js", "document.write"]) expect(doc.text).not.toContain(bad);
  });

  it("is chosen by content when the extension says nothing", async () => {
    const doc = await convertFile("download", utf8("<!doctype html><p>Hello</p><h2>Sub</h2>"));
    expect(doc.fileType).toBe("html");
    expect(doc.text).toContain("## Sub");
  });

  it("rejects an HTML file with no text as empty", async () => {
    await expectFileError(() => convertFile("blank.html", utf8("<html><script>x()</script></html>")), "E_INPUT_EMPTY", "blank.html");
  });

  it("converts deeply nested markup without crashing the process", async () => {
    const html = "<div>".repeat(2000) + "<h2>Deep</h2>" + "</div>".repeat(2000);
    const result = await convertFile("deep.html", utf8(html)).then(
      (d) => d.text,
      (e: { code?: string }) => e.code,
    );
    expect(result === "E_PARSE" || String(result).includes("## Deep")).toBe(true);
  });

  it("htmlToMarkdown escapes nothing it should keep", () => {
    expect(htmlToMarkdown("<h4>§ 2. Title</h4><p>(a) text</p>")).toBe("#### § 2. Title\n\n(a) text\n");
  });

  it("maps each heading's section to the heading's element id", async () => {
    const html = `<h1 id="top">Rules</h1><p>Intro.</p><section id="s2"><h2>Part 2</h2><p>Body <code>#x</code>.</p></section>
      <h2><a name="p3"></a>Part 3</h2><pre><code># not a heading</code></pre><h3>No id</h3><p>End.</p>`;
    const doc = await convertFile("ids.html", utf8(html));
    const spans = doc.sourceMap!.map((e) => [e.anchor, doc.text.slice(e.start, e.end)]);
    expect(spans).toEqual([
      ["top", "# Rules\n\nIntro."],
      ["s2", "## Part 2\n\nBody `#x`."],
      ["p3", "## Part 3\n\n```\n# not a heading\n```"],
    ]);
  });

  it("refuses elements nested deeper than 1,000 before parsing, fast, naming the file", async () => {
    const deep = `<html><body>${"<div>".repeat(50_000)}x${"</div>".repeat(50_000)}</body></html>`;
    const err = await expectFileError(() => convertFile("deep.html", utf8(deep)), "E_PARSE", "deep.html");
    expect(err.message).toContain("nested deeper than 1000");
    const ok = `<html><body>${"<div>".repeat(900)}${"<p>a".repeat(5000)}<br><img src=x>x${"</div>".repeat(900)}</body></html>`;
    expect((await convertFile("ok.html", utf8(ok))).text).toContain("x");
  });
});
