/** Lower-case extension of a path without the dot ("" when none). */
export function extensionOf(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

function startsWith(bytes: Uint8Array, magic: readonly number[], at = 0): boolean {
  if (bytes.length < at + magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[at + i] !== magic[i]) return false;
  return true;
}

/** True when the bytes start a zip archive (local file header or empty-archive record). */
export function isZip(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]);
}

/** True when `%PDF-` appears in the first 1 KiB (the PDF specification allows leading junk). */
export function isPdf(bytes: Uint8Array): boolean {
  const head = latin1Head(bytes, 1024);
  return head.includes("%PDF-");
}

/** The first `n` bytes as latin1 text, for sniffing signatures. */
export function latin1Head(bytes: Uint8Array, n: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(n, bytes.length)).toString("latin1");
}

/** The first `n` bytes decoded leniently as text (BOM-aware), for sniffing markup. */
export function textHead(bytes: Uint8Array, n = 4096): string {
  const head = bytes.subarray(0, Math.min(n, bytes.length));
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder("utf-16le").decode(head);
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder("utf-16be").decode(head);
  return new TextDecoder("utf-8").decode(head);
}

const BINARY_SIGNATURES: ReadonlyArray<{ name: string; magic: readonly number[]; at?: number }> = [
  { name: "PNG image", magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { name: "JPEG image", magic: [0xff, 0xd8, 0xff] },
  { name: "GIF image", magic: [0x47, 0x49, 0x46, 0x38] },
  { name: "WebP/RIFF file", magic: [0x52, 0x49, 0x46, 0x46] },
  { name: "TIFF image", magic: [0x49, 0x49, 0x2a, 0x00] },
  { name: "TIFF image", magic: [0x4d, 0x4d, 0x00, 0x2a] },
  { name: "gzip archive", magic: [0x1f, 0x8b] },
  { name: "zip archive", magic: [0x50, 0x4b, 0x03, 0x04] },
  { name: "zip archive", magic: [0x50, 0x4b, 0x05, 0x06] },
  { name: "7-zip archive", magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { name: "RAR archive", magic: [0x52, 0x61, 0x72, 0x21] },
  { name: "xz archive", magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { name: "OLE2 document (legacy .doc/.xls)", magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
  { name: "ELF executable", magic: [0x7f, 0x45, 0x4c, 0x46] },
  { name: "WebAssembly module", magic: [0x00, 0x61, 0x73, 0x6d] },
  { name: "SQLite database", magic: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66] },
  { name: "tar archive", magic: [0x75, 0x73, 0x74, 0x61, 0x72], at: 257 },
];

const BINARY_EXTENSIONS = new Set([
  "png", "jpg", "jpeg", "gif", "webp", "tif", "tiff", "bmp", "ico", "zip", "gz", "tgz", "7z", "rar", "bz2", "xz",
  "tar", "doc", "xls", "xlsx", "ppt", "pptx", "odt", "exe", "dll", "so", "wasm", "sqlite", "db", "mp3", "mp4",
  "wav", "avi", "mov", "woff", "woff2", "ttf", "otf", "class", "jar", "epub",
]);

/** Name of a known binary format the bytes start with, or null. */
export function binarySignature(bytes: Uint8Array): string | null {
  for (const sig of BINARY_SIGNATURES) if (startsWith(bytes, sig.magic, sig.at ?? 0)) return sig.name;
  return null;
}

/** True when the extension names a binary format that no text converter should read. */
export function isBinaryExtension(ext: string): boolean {
  return BINARY_EXTENSIONS.has(ext);
}

/**
 * The root element's start tag (`<rfc number="9110" …>`) when the bytes look like an XML document — only a
 * BOM, whitespace, the XML declaration, comments, processing instructions and a DOCTYPE before it — else null.
 */
export function xmlRootTag(bytes: Uint8Array): string | null {
  const head = textHead(bytes, 65536).replace(/^\uFEFF/, "");
  let i = 0;
  for (;;) {
    while (i < head.length && /\s/.test(head[i])) i++;
    if (head.startsWith("<?", i)) {
      const end = head.indexOf("?>", i);
      if (end === -1) return null;
      i = end + 2;
    } else if (head.startsWith("<!--", i)) {
      const end = head.indexOf("-->", i);
      if (end === -1) return null;
      i = end + 3;
    } else if (/^<!DOCTYPE\b/i.test(head.slice(i, i + 9))) {
      let depth = 0;
      let j = i + 9;
      for (; j < head.length; j++) {
        if (head[j] === "[") depth++;
        else if (head[j] === "]") depth--;
        else if (head[j] === ">" && depth <= 0) break;
      }
      if (j >= head.length) return null;
      i = j + 1;
    } else {
      const m = /^<[A-Za-z_][\w.:-]*(\s[^>]*)?\/?>/.exec(head.slice(i, i + 4096));
      return m ? m[0] : null;
    }
  }
}
