import { readFileSync } from "node:fs";
import { convertFile, CsvConverter, sniffDelimiter, XlsxConverter } from "@hierdoc/convert";
import { expectFileError, utf8 } from "./helpers.js";
import { buildXlsx, LAUGHS } from "./office-fixtures.js";

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/office/${name}`, import.meta.url)));

describe("XLSX converter", () => {
  it("reads a LibreOffice workbook: one section per sheet, rows as 'Header: value' lines", async () => {
    const doc = await convertFile("rules.xlsx", fixture("rules.xlsx"));
    expect(doc).toMatchObject({ fileType: "xlsx", format: "markdown", title: "Controls" });
    expect(doc.text).toBe(
      "# Controls\n\nControl: Access review; Owner: Security team; Frequency (days): 90\n\n" +
        "Control: Backup restore test; Owner: Operations; Frequency (days): 30\n\n" +
        "# Owners\n\nTeam: Security team; Contact: security@example.com\n",
    );
    const row = doc.sourceMap!.find((e) => e.anchor === "Owners!row 2")!;
    expect(doc.text.slice(row.start, row.end)).toBe("Team: Security team; Contact: security@example.com");
  });

  it("names columns without a header by letter, and skips empty cells", async () => {
    const book = buildXlsx([{ name: "S", rows: [["Rule", ""], ["# one", "x"], ["", 2.5]] }]);
    const doc = await convertFile("s.xlsx", book);
    expect(doc.text).toBe("# S\n\nRule: # one; Column B: x\n\nColumn B: 2.5\n");
  });

  it("anchors rows by their sheet row number when the table starts below row 1 and right of column A", async () => {
    const book = buildXlsx([{ name: "S", rows: [["Rule", "Days"], ["Keep", 30]], firstRow: 3, firstCol: 2 }]);
    const doc = await convertFile("o.xlsx", book);
    expect(doc.text).toBe("# S\n\nRule: Keep; Days: 30\n");
    expect(doc.sourceMap!.map((e) => e.anchor)).toEqual(["S", "S!row 4"]);
  });

  it("bounds large sheets: rows beyond maxRows are counted in a closing note", async () => {
    const rows: Array<Array<string | number>> = [["Id", "Name"]];
    for (let i = 1; i <= 25; i++) rows.push([i, `n${i}`]);
    const doc = await new XlsxConverter({ maxRows: 10 }).convert({ path: "big.xlsx", bytes: buildXlsx([{ name: "Big", rows }]) });
    expect(doc.text.match(/^Id: /gm)).toHaveLength(10);
    expect(doc.text).toContain("Id: 10; Name: n10\n\n(15 more rows after row 11 not included: the limit is 10 rows per sheet)\n");
  });

  it("refuses a worksheet with a DOCTYPE (entity expansion) before parsing it", async () => {
    const book = buildXlsx([{ name: "S", rows: [["a"]], prolog: LAUGHS }]);
    const err = await expectFileError(() => convertFile("laughs.xlsx", book), "E_PARSE", "laughs.xlsx");
    expect(err.details.entry).toBe("xl/worksheets/sheet1.xml");
  });

  it("refuses a zip bomb and a .xlsx that is not a zip", async () => {
    const zeros = "0".repeat(4 * 1024 * 1024);
    const bomb = buildXlsx([{ name: "S", rows: [[zeros]] }]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expectFileError(() => convertFile("bomb.xlsx", bomb, { maxUncompressedBytes: 1024 * 1024 }), "E_INPUT_TOO_LARGE", "bomb.xlsx");
    await expectFileError(() => convertFile("x.xlsx", utf8("a,b")), "E_PARSE", "x.xlsx");
  });

  it("fails with E_INPUT_EMPTY for a workbook without values", async () => {
    await expectFileError(() => convertFile("e.xlsx", buildXlsx([{ name: "S", rows: [] }])), "E_INPUT_EMPTY", "e.xlsx");
  });
});

describe("CSV converter", () => {
  it("writes the header once and every row as readable text, with row anchors", async () => {
    const doc = await convertFile("data/controls.csv", utf8('Control,Owner,Notes\r\nAccess review,Security,"quarterly, all\nsystems"\r\nBackups,,"said ""yes"""\r\n'));
    expect(doc).toMatchObject({ fileType: "csv", format: "markdown", title: "controls.csv" });
    expect(doc.text).toBe(
      "# controls.csv\n\nControl: Access review; Owner: Security; Notes: quarterly, all systems\n\nControl: Backups; Notes: said \"yes\"\n",
    );
    expect(doc.sourceMap!.map((e) => e.anchor)).toEqual(["row 2", "row 3"]);
  });

  it("sniffs ; and tab delimiters, and reads .tsv as tab-separated", async () => {
    expect(sniffDelimiter('a;b;c\n1;"x;y";3\n')).toBe(";");
    expect(sniffDelimiter("a\tb\n1\t2\n")).toBe("\t");
    expect(sniffDelimiter("just one column\nvalue\n")).toBe(",");
    expect((await convertFile("x.csv", utf8("a;b\n1;2\n"))).text).toBe("# x.csv\n\na: 1; b: 2\n");
    expect((await convertFile("x.tsv", utf8("a,b\tc\n1,5\t2\n"))).text).toBe("# x.tsv\n\na,b: 1,5; c: 2\n");
  });

  it("accepts ragged rows", async () => {
    expect((await convertFile("r.csv", utf8("a,b\n1\n2,3,4\n"))).text).toBe("# r.csv\n\na: 1\n\na: 2; b: 3; Column C: 4\n");
  });

  it("bounds large files with a closing note", async () => {
    const csv = ["n", ...Array.from({ length: 50 }, (_, i) => String(i))].join("\n");
    const doc = await new CsvConverter({ maxRows: 5 }).convert({ path: "n.csv", bytes: utf8(csv) });
    expect(doc.text).toContain("(45 more rows after row 6 not included: the limit is 5 rows per sheet)");
  });

  it("fails with E_PARSE naming the line of a broken quote", async () => {
    const err = await expectFileError(() => convertFile("bad.csv", utf8('a,b\n1,2\n3,"open\n')), "E_PARSE", "bad.csv");
    expect(err.details.line).toBeGreaterThanOrEqual(3);
  });

  it("fails with E_INPUT_EMPTY for a file of empty cells and E_INPUT_ENCODING for bad UTF-8", async () => {
    await expectFileError(() => convertFile("e.csv", utf8(",,\n,,\n")), "E_INPUT_EMPTY", "e.csv");
    await expectFileError(() => convertFile("l.csv", new Uint8Array([0x61, 0x0a, 0xe9, 0x0a])), "E_INPUT_ENCODING", "l.csv");
  });
});
