import { convertFile } from "@hierdoc/convert";
import { headingLines, utf8 } from "./helpers.js";

const rfc = `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE rfc [
  <!ENTITY MUST "<bcp14>MUST</bcp14>">
  <!ENTITY mdash "&#8212;">
]>
<rfc number="9999" xmlns:x="http://purl.org/net/xml2rfc/ext"><front><title>Widget Protocol</title>
<author surname="Doe" initials="J."/><abstract><t>Widgets &mdash; defined.</t></abstract></front>
<middle>
<section title="Introduction" anchor="intro"><t>See <xref target="get"/> and <xref target="RFC2119"/>.</t>
  <section title="Notation" anchor="notation"><t>Clients &MUST; comply &lt;always&gt;.</t></section>
</section>
<section anchor="methods"><name>Methods</name>
  <section title="Overview" anchor="overview"><t>Uses <xref target="HTTP" x:fmt="of" x:sec="9.3"/> and <xref target="HTTP" x:fmt="," x:sec="4"/>.</t></section>
  <section title="Unnumbered note" numbered="false"><t>Aside.</t></section>
  <section title="GET" anchor="get"><iref item="GET"/>
    <t>Lines:</t><ul><li>one</li><li>two</li></ul>
    <sourcecode type="abnf">GET = "GET"
# not a heading</sourcecode>
  </section>
</section>
</middle>
<back>
<displayreference target="HTTP" to="HTTP/1.1"/>
<references title="Normative References"><reference anchor="RFC2119"><front><title>Key words</title><author surname="Bradner" initials="S."/><date month="March" year="1997"/></front><seriesInfo name="BCP" value="14"/></reference></references>
<references title="Informative References"><reference anchor="HTTP"><front><title>HTTP/1.1</title></front></reference></references>
<section title="Collected ABNF" anchor="abnf"><t>Back to <xref target="notation"/>.</t>
  <section title="Details" anchor="abnf.details"><t>More.</t></section></section>
<section title="Acknowledgements" numbered="false" anchor="acks"><t>Thanks.</t></section>
</back></rfc>`;

describe("xml2rfc converter", () => {
  it("numbers sections as the published RFC: middle, references, appendices, unnumbered", async () => {
    const doc = await convertFile("rfc/rfc9999.xml", utf8(rfc));
    expect(doc).toMatchObject({ fileType: "rfc-xml", format: "markdown", title: "RFC 9999: Widget Protocol" });
    expect(headingLines(doc.text)).toEqual([
      "# RFC 9999: Widget Protocol",
      "## Abstract",
      "## 1. Introduction",
      "### 1.1. Notation",
      "## 2. Methods",
      "### 2.1. Overview",
      "### Unnumbered note",
      "### 2.2. GET",
      "## 3. References",
      "### 3.1. Normative References",
      "### 3.2. Informative References",
      "## Appendix A. Collected ABNF",
      "### Appendix A.1. Details",
      "## Acknowledgements",
    ]);
  });

  it("renders entities, cross-references, lists, code and references", async () => {
    const doc = await convertFile("rfc9999.xml", utf8(rfc));
    expect(doc.text).toContain("Widgets — defined.");
    expect(doc.text).toContain("See Section 2.2 and [RFC2119].");
    expect(doc.text).toContain("Clients MUST comply <always>.");
    expect(doc.text).toContain("Uses Section 9.3 of [HTTP/1.1] and [HTTP/1.1], Section 4.");
    expect(doc.text).toContain("Back to Section 1.1.");
    expect(doc.text).toContain("- one\n\n- two");
    expect(doc.text).toContain('```abnf\nGET = "GET"\n# not a heading\n```');
    expect(doc.text).toContain('[RFC2119] Bradner, S., "Key words", BCP 14, March 1997.');
  });

  it("maps headings back to their anchors", async () => {
    const doc = await convertFile("rfc9999.xml", utf8(rfc));
    const get = doc.sourceMap!.find((e) => e.anchor === "get")!;
    expect(doc.text.slice(get.start, get.end)).toMatch(/^### 2\.2\. GET\n\nLines:/);
    const refs = doc.sourceMap!.find((e) => e.anchor === "section-3")!;
    expect(doc.text.slice(refs.start, refs.end)).toBe("## 3. References");
  });
});

describe("xml2rfc cross-references into another RFC (x:source)", () => {
  const other = `<rfc number="9998"><middle><section title="One"><t>x</t></section>
    <section title="Two"><section title="Semantics" anchor="sem"><t>y</t></section></section></middle></rfc>`;
  const citing = `<rfc xmlns:x="http://purl.org/net/xml2rfc/ext"><middle><section title="Intro">
    <t>See <xref target="SEM" x:rel="#sem"/>, <xref target="sem"/> and <xref target="SEM" x:rel="#sem" x:fmt=","/>.</t></section></middle>
    <back><references title="Normative References"><reference anchor="SEM"><x:source href="rfc9998.xml" basename="rfc9998"><x:has anchor="sem"/></x:source></reference></references></back></rfc>`;

  it("numbers references into a resolved source document", async () => {
    const seen: string[] = [];
    const doc = await convertFile("docs/rfc9997.xml", utf8(citing), {
      resolveSource: (href, from) => {
        seen.push(`${from} → ${href}`);
        return href === "rfc9998.xml" ? utf8(other) : undefined;
      },
    });
    expect(seen).toEqual(["docs/rfc9997.xml → rfc9998.xml"]);
    expect(doc.text).toContain("See Section 2.1 of [SEM], Section 2.1 of [SEM] and [SEM], Section 2.1.");
  });

  it("falls back to the bare label when the source is missing or broken", async () => {
    for (const resolveSource of [undefined, () => undefined, () => utf8("<rfc><broken"), () => { throw new Error("io"); }]) {
      const doc = await convertFile("rfc9997.xml", utf8(citing), { resolveSource });
      expect(doc.text).toContain("See [SEM], [SEM] and [SEM].");
    }
  });
});
