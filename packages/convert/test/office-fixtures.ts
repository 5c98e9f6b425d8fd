import { buildZip, type ZipFile } from "./fixtures.js";

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';
const REL_SLIDE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide";
const REL_NOTES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide";

/** A shape of a test slide: a placeholder (`title`, `body`, …), a text box, or a table. */
export type TestShape =
  | { ph: string; paragraphs: Array<string | { text: string; lvl?: number }> }
  | { box: string[]; y?: number }
  | { table: string[][] };

function para(p: string | { text: string; lvl?: number }): string {
  const { text, lvl } = typeof p === "string" ? { text: p, lvl: undefined } : p;
  return `<a:p>${lvl ? `<a:pPr lvl="${lvl}"/>` : ""}<a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p>`;
}

function shape(s: TestShape, id: number): string {
  if ("ph" in s) {
    return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="ph${id}"/><p:cNvSpPr/><p:nvPr><p:ph type="${s.ph}"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${s.paragraphs.map(para).join("")}</p:txBody></p:sp>`;
  }
  if ("box" in s) {
    return `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="box${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="${s.y ?? 1000}"/><a:ext cx="10" cy="10"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${s.box.map(para).join("")}</p:txBody></p:sp>`;
  }
  const rows = s.table.map((r) => `<a:tr h="1">${r.map((c) => `<a:tc><a:txBody><a:bodyPr/>${para(c)}</a:txBody></a:tc>`).join("")}</a:tr>`).join("");
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData><a:tbl>${rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

/** A minimal PowerPoint deck: slides of shapes, optional speaker notes, listed in `order` (default 1…n). */
export function buildPptx(
  slides: Array<{ shapes: TestShape[]; notes?: string; raw?: string; prolog?: string }>,
  options: { order?: number[]; extra?: ZipFile[] } = {},
): Uint8Array {
  const order = options.order ?? slides.map((_, i) => i + 1);
  const files: ZipFile[] = [
    { name: "[Content_Types].xml", data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>` },
    {
      name: "ppt/presentation.xml",
      data: `${XML}<p:presentation ${P} ${R}><p:sldIdLst>${order.map((n) => `<p:sldId id="${255 + n}" r:id="rId${n}"/>`).join("")}</p:sldIdLst></p:presentation>`,
    },
    {
      name: "ppt/_rels/presentation.xml.rels",
      data: `${XML}<Relationships ${RELS}>${slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_SLIDE}" Target="slides/slide${i + 1}.xml"/>`).join("")}</Relationships>`,
    },
  ];
  slides.forEach((s, i) => {
    const n = i + 1;
    const body = s.raw ?? `<p:cSld><p:spTree>${s.shapes.map((sh, k) => shape(sh, k + 2)).join("")}</p:spTree></p:cSld>`;
    files.push({ name: `ppt/slides/slide${n}.xml`, data: `${s.prolog ?? XML}<p:sld ${A} ${P} ${R}>${body}</p:sld>` });
    if (s.notes !== undefined) {
      files.push({
        name: `ppt/slides/_rels/slide${n}.xml.rels`,
        data: `${XML}<Relationships ${RELS}><Relationship Id="rId9" Type="${REL_NOTES}" Target="../notesSlides/notesSlide${n}.xml"/></Relationships>`,
      });
      files.push({
        name: `ppt/notesSlides/notesSlide${n}.xml`,
        data: `${XML}<p:notes ${A} ${P}><p:cSld><p:spTree>${shape({ ph: "sldImg", paragraphs: [] }, 2)}${shape({ ph: "body", paragraphs: [s.notes] }, 3)}</p:spTree></p:cSld></p:notes>`,
      });
    }
  });
  return buildZip([...files, ...(options.extra ?? [])]);
}

/** A minimal Excel workbook with inline-string and number cells (row arrays per sheet). */
export function buildXlsx(
  sheets: Array<{ name: string; rows: Array<Array<string | number>>; prolog?: string; firstRow?: number; firstCol?: number }>,
): Uint8Array {
  const col = (i: number) => String.fromCharCode(65 + i);
  const files: ZipFile[] = [
    {
      name: "[Content_Types].xml",
      data:
        `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join("") +
        "</Types>",
    },
    {
      name: "_rels/.rels",
      data: `${XML}<Relationships ${RELS}><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: "xl/workbook.xml",
      data: `${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ${R}><sheets>${sheets.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join("")}</sheets></workbook>`,
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: `${XML}<Relationships ${RELS}>${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join("")}</Relationships>`,
    },
  ];
  sheets.forEach((s, i) => {
    const r0 = s.firstRow ?? 1;
    const c0 = s.firstCol ?? 0;
    const rows = s.rows
      .map((r, ri) => {
        const n = ri + r0;
        const cells = r.map((v, ci) => {
          const ref = `${col(ci + c0)}${n}`;
          return typeof v === "number" ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
        });
        return `<row r="${n}">${cells.join("")}</row>`;
      })
      .join("");
    files.push({
      name: `xl/worksheets/sheet${i + 1}.xml`,
      data: `${s.prolog ?? XML}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
    });
  });
  return buildZip(files);
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';

/** A minimal ODT: `body` is the XML inside `<office:text>`; `prolog` may add a DOCTYPE. */
export function buildOdt(body: string, prolog = '<?xml version="1.0" encoding="UTF-8"?>'): Uint8Array {
  return buildZip([
    { name: "mimetype", data: "application/vnd.oasis.opendocument.text", store: true },
    { name: "content.xml", data: `${prolog}<office:document-content ${ODF_NS}><office:body><office:text>${body}</office:text></office:body></office:document-content>` },
  ]);
}

/** A minimal EPUB 3: chapters (XHTML bodies) in spine order, with nav labels; `nonLinear` ids are left out of reading. */
export function buildEpub(chapters: Array<{ id: string; label: string; body: string; linear?: boolean }>, title = "Book"): Uint8Array {
  const page = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body>${body}</body></html>`;
  return buildZip([
    { name: "mimetype", data: "application/epub+zip", store: true },
    {
      name: "META-INF/container.xml",
      data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    {
      name: "OPS/book.opf",
      data:
        `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" xmlns:dc="http://purl.org/dc/elements/1.1/" version="3.0"><metadata><dc:title>${title}</dc:title></metadata><manifest>` +
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' +
        chapters.map((c) => `<item id="${c.id}" href="text/${c.id}.xhtml" media-type="application/xhtml+xml"/>`).join("") +
        `</manifest><spine>${chapters.map((c) => `<itemref idref="${c.id}"${c.linear === false ? ' linear="no"' : ""}/>`).join("")}</spine></package>`,
    },
    {
      name: "OPS/nav.xhtml",
      data: page(`<nav><ol>${chapters.map((c) => `<li><a href="text/${c.id}.xhtml">${c.label}</a></li>`).join("")}</ol></nav>`),
    },
    ...chapters.map((c) => ({ name: `OPS/text/${c.id}.xhtml`, data: page(c.body) })),
  ]);
}

/** A billion-laughs DOCTYPE (nested entities), refused by the safe XML parser. */
export const LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "hahahahahahahahahaha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>';
