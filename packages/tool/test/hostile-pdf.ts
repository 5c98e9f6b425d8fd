import { deflateSync } from "node:zlib";

/** A one-page PDF (Helvetica) whose page content stream is `content`, Flate-compressed. */
export function pdfWithContent(content: Buffer): Buffer {
  const stream = deflateSync(content, { level: 9 });
  const objects: Buffer[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>"),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream, Buffer.from("\nendstream")]),
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n")];
  let size = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(size);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from("\nendobj\n")]);
    parts.push(obj);
    size += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)].join("");
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/** A small valid PDF with one line of text. */
export function plainPdf(text: string): Buffer {
  return pdfWithContent(Buffer.from(`BT /F1 12 Tf 72 720 Td (${text}) Tj ET`));
}

/** A PDF whose content stream repeats a text-showing operation `ops` times: the text extractor spins for seconds. */
export function spinningPdf(ops = 2_000_000): Buffer {
  return pdfWithContent(Buffer.from("BT /F1 12 Tf 72 720 Td (spin spin spin spin) Tj ET\n".repeat(ops)));
}

/** A ≈ 100 KB PDF whose content stream inflates to one `chars`-character string: the parser's heap balloons. */
export function balloonPdf(chars = 100_000_000): Buffer {
  return pdfWithContent(Buffer.concat([Buffer.from("BT /F1 12 Tf 72 720 Td ("), Buffer.alloc(chars, "A"), Buffer.from(") Tj ET")]));
}
