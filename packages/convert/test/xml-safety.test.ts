import { convertFile, parseXml } from "@hierdoc/convert";
import { caught, expectFileError, utf8 } from "./helpers.js";

const lol = `<?xml version="1.0"?>
<!DOCTYPE rfc [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<rfc><middle><section title="x"><t>&lol9;</t></section></middle></rfc>`;

describe("safe XML parsing", () => {
  it("refuses billion-laughs entity nesting with E_PARSE, quickly and without expanding", async () => {
    const before = process.memoryUsage().heapUsed;
    const err = await expectFileError(() => convertFile("lol.xml", utf8(lol)), "E_PARSE", "lol.xml");
    expect(err.message).toMatch(/nested entity expansion/);
    expect(err.details.entity).toBe("lol1");
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
  });

  it("refuses external and parameter entities (no file or network access)", async () => {
    const ext = `<?xml version="1.0"?><!DOCTYPE rfc [<!ENTITY x SYSTEM "file:///etc/passwd">]><rfc><front><title>&x;</title></front></rfc>`;
    const err = await expectFileError(() => convertFile("ext.xml", utf8(ext)), "E_PARSE", "ext.xml");
    expect(err.message).toMatch(/external entity/);
    const param = `<!DOCTYPE rfc [<!ENTITY % p "x">]><rfc/>`;
    expect((await caught(() => parseXml("p.xml", param))).message).toMatch(/parameter entity/);
  });

  it("caps the total entity expansion", async () => {
    const big = "x".repeat(4000);
    const xml = `<!DOCTYPE rfc [<!ENTITY b "${big}">]><rfc><front><title>${"&b;".repeat(300)}</title></front></rfc>`;
    const err = await caught(() => parseXml("big.xml", xml, { maxExpansion: 1_000_000 }));
    expect(err.code).toBe("E_PARSE");
    expect(err.message).toMatch(/expansion exceeds/);
  });

  it("refuses nesting deeper than the limit", async () => {
    const xml = `<rfc>${"<t>".repeat(300)}x${"</t>".repeat(300)}</rfc>`;
    expect((await caught(() => parseXml("deep.xml", xml))).message).toMatch(/nested deeper/);
    expect(parseXml("ok.xml", xml, { maxDepth: 400 }).name).toBe("rfc");
  });

  it("reports malformed XML with its line", async () => {
    const err = await caught(() => parseXml("bad.xml", "<rfc>\n<t>open\n</rfc>"));
    expect(err.code).toBe("E_PARSE");
    expect(err.details.line).toBe(3);
  });
});
