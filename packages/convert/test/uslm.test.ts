import { convertFile } from "@hierdoc/convert";
import { expectFileError, headingLines, utf8 } from "./helpers.js";

const usc = `<?xml version="1.0" encoding="UTF-8"?>
<uscDoc xmlns="http://xml.house.gov/schemas/uslm/1.0" identifier="/us/usc/t99">
<meta><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">Title 99</dc:title></meta>
<main><title identifier="/us/usc/t99"><num value="99">Title 99—</num><heading>WIDGETS</heading>
<toc><tocItem><column>1.</column><column>Skipped toc entry</column></tocItem></toc>
<chapter identifier="/us/usc/t99/ch1"><num value="1">CHAPTER 1—</num><heading>GENERAL PROVISIONS</heading>
<section identifier="/us/usc/t99/s1"><num value="1">§ 1.</num><heading> Definitions</heading>
<chapeau>In this title:</chapeau>
<paragraph identifier="/us/usc/t99/s1/1"><num value="1">(1)</num><heading> Widget.—</heading><content>The term “widget” means a <ref href="/us/usc/t99/s2">gadget</ref> of any kind.</content></paragraph>
<paragraph identifier="/us/usc/t99/s1/2"><num value="2">(2)</num>
<subparagraph identifier="/us/usc/t99/s1/2/A"><num value="A">(A)</num><content>first case; and</content></subparagraph>
<subparagraph identifier="/us/usc/t99/s1/2/B"><num value="B">(B)</num><content>second case.</content></subparagraph>
</paragraph>
<sourceCredit>(Pub. L. 1–1.)</sourceCredit>
<notes><note><heading>Amendments</heading><p>Skipped note.</p></note></notes>
</section>
<section identifier="/us/usc/t99/s2"><num value="2">§ 2.</num><heading> Quoting<ref class="footnoteRef" idref="fn1">1</ref><note type="footnote" id="fn1"><num>1</num> So in original.</note></heading>
<content><p>Section 5 was amended to read:</p><quotedContent><section><num>§ 5.</num><heading> Quoted section</heading><content>Not a heading here.</content></section></quotedContent></content>
</section>
<section status="repealed" identifier="/us/usc/t99/s3"><num value="3">[§ 3.</num><heading> Repealed. Pub. L. 2–2]</heading></section>
</chapter></title></main></uscDoc>`;

const cfr = `<?xml version="1.0"?>
<cfrDoc xmlns="http://schemas.gpo.gov/xml/uslm"><meta><docNumber>27</docNumber></meta><main>
<title><num value="27">Title 27—</num><heading>Alcohol</heading>
<chapter identifier="/us/cfr/t27/ch2"><num value="II">CHAPTER II—</num><heading>BUREAU</heading>
<part identifier="/us/cfr/t27/p478"><num value="478">PART 478—</num><heading>COMMERCE IN FIREARMS</heading>
<subpart identifier="/us/cfr/t27/p478/spB"><num value="B">Subpart B—</num><heading>Definitions </heading>
<section identifier="/us/cfr/t27/s478.11"><num value="478.11">§ 478.11</num><heading>Meaning of terms.</heading>
<content><p>When used in this part:</p><p><i>Dealer.</i> Any person engaged in business.</p>
<source>[T.D. ATF–270, 53 FR 10492]</source></content></section>
<level><heading>Change of Ownership</heading>
<section identifier="/us/cfr/t27/s478.12"><num value="478.12">§ 478.12</num><heading>Death of owner.</heading>
<paragraph identifier="/us/cfr/t27/s478.12/a"><num value="a">(a)</num><content> Survivors may continue.</content></paragraph>
<table><tr><th>Form</th><th>Fee</th></tr><tr><td>7</td><td>$200</td></tr></table></section></level>
</subpart></part></chapter></title></main></cfrDoc>`;

describe("USLM converter", () => {
  it("mirrors the US Code hierarchy in headings and writes subsections as labelled paragraphs", async () => {
    const doc = await convertFile("uscode/xml/usc99.xml", utf8(usc));
    expect(doc).toMatchObject({ fileType: "uslm-xml", format: "markdown", title: "Title 99— WIDGETS" });
    expect(headingLines(doc.text)).toEqual([
      "# Title 99— WIDGETS",
      "## CHAPTER 1— GENERAL PROVISIONS",
      "### § 1. Definitions",
      "### § 2. Quoting11 So in original.",
      "### [§ 3. Repealed. Pub. L. 2–2]",
    ]);
    expect(doc.text).toContain(
      "### § 1. Definitions\n\nIn this title:\n\n(1) Widget.— The term “widget” means a gadget of any kind.\n\n(2)\n\n(A) first case; and\n\n(B) second case.\n\n### § 2.",
    );
    expect(doc.text).toContain("§ 5. Quoted section");
    for (const skipped of ["Skipped toc entry", "Skipped note", "Pub. L. 1–1"]) expect(doc.text).not.toContain(skipped);
  });

  it("maps blocks back to their USLM identifiers", async () => {
    const doc = await convertFile("usc99.xml", utf8(usc));
    const at = (anchor: string) => {
      const e = doc.sourceMap!.find((m) => m.anchor === anchor)!;
      return doc.text.slice(e.start, e.end);
    };
    expect(at("/us/usc/t99/s1/2/A")).toBe("(A) first case; and");
    expect(at("/us/usc/t99/s1")).toBe("### § 1. Definitions\n\nIn this title:");
    for (const e of doc.sourceMap!) expect(e.end).toBeGreaterThan(e.start);
  });

  it("handles CFR: parts and subparts as headings, subject groups transparent, sources dropped, tables kept", async () => {
    const doc = await convertFile("cfr.xml", utf8(cfr));
    expect(headingLines(doc.text)).toEqual([
      "# Title 27— Alcohol",
      "## CHAPTER II— BUREAU",
      "### PART 478— COMMERCE IN FIREARMS",
      "#### Subpart B— Definitions",
      "##### § 478.11 Meaning of terms.",
      "##### § 478.12 Death of owner.",
    ]);
    expect(doc.text).toContain("When used in this part:\n\nDealer. Any person engaged in business.");
    expect(doc.text).toContain("(a) Survivors may continue.");
    expect(doc.text).toContain("| Form | Fee |\n| --- | --- |\n| 7 | $200 |");
    expect(doc.text).not.toContain("53 FR");
    expect(doc.text).not.toContain("Change of Ownership");
  });

  it("fails with E_PARSE naming the file for truncated USLM", async () => {
    const err = await expectFileError(() => convertFile("cut.xml", utf8(usc.slice(0, 900))), "E_PARSE", "cut.xml");
    expect(err.details.line).toBeGreaterThan(0);
  });
});
