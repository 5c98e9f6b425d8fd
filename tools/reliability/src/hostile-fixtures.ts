import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";

/** What a hostile fixture should produce when ingested. */
export type Expectation = "ok" | "error";

/** One generated fixture file. */
export interface Fixture {
  /** File name inside the fixture folder (a document extension, so a folder ingest picks it up). */
  name: string;
  /** What the ingest must do with it: index it, or report one clear error naming it. */
  expect: Expectation;
  /** Error codes accepted for an `error` fixture. */
  codes?: string[];
  /** A word only this file contains; searched for after the ingest (ok fixtures). */
  marker?: string;
  /** Why the file is hostile. */
  why: string;
}

/** Sizes of the generated fixtures; the defaults are the issue's numbers. */
export interface FixtureSizes {
  /** Bytes of the single-line file (default 50 MB). */
  longLineBytes?: number;
  /** Headings in the many-headings file (default 10,000). */
  headings?: number;
  /** Depth of the nested numbered units and nested lists (default 1,000). */
  depth?: number;
  /** Bytes the zip bomb's one entry inflates to (default 1 GiB). */
  bombBytes?: number;
}

/** Sizes from the environment: HIERDOC_HOSTILE_LONG_LINE_MB, HIERDOC_HOSTILE_HEADINGS, HIERDOC_HOSTILE_DEPTH. */
export function sizesFromEnv(env: NodeJS.ProcessEnv = process.env): FixtureSizes {
  const num = (name: string): number | undefined => (env[name] ? Number(env[name]) : undefined);
  const mb = num("HIERDOC_HOSTILE_LONG_LINE_MB");
  return { longLineBytes: mb === undefined ? undefined : mb * 1e6, headings: num("HIERDOC_HOSTILE_HEADINGS"), depth: num("HIERDOC_HOSTILE_DEPTH") };
}

const WORDS = ["provider", "shall", "notify", "authority", "within", "days", "record", "data", "controller", "request", "section", "report"];

function words(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(i * 7 + seed) % WORDS.length]);
  return out.join(" ");
}

/**
 * Builds a zip holding one `word/document.xml` entry (deflated) that inflates to `size` bytes, with
 * honest or lying declared sizes. Built with node:zlib only.
 */
export function zipBomb(size: number, lieAboutSize = true): Buffer {
  const block = Buffer.alloc(1 << 20, 0x41);
  const data = deflateLarge(block, Math.max(1, Math.ceil(size / block.length)));
  const name = Buffer.from("word/document.xml");
  const declared = lieAboutSize ? 1000 : size;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + name.length + data.length;
  const cdSize = central.length + name.length;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(cdSize, 12);
  eocd.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, name, data, central, name, eocd]);
}

/** Deflates `times` copies of `block` as one raw deflate stream without holding the whole input. */
function deflateLarge(block: Buffer, times: number): Buffer {
  // Each copy is compressed on its own with Z_FULL_FLUSH (no final bit, byte-aligned, no back references
  // into the previous copy), so the copies concatenate into one valid stream; the last one finishes it.
  const out: Buffer[] = [];
  const mid = deflateRawSync(block, { level: 9, finishFlush: 3 /* Z_FULL_FLUSH */ });
  for (let i = 0; i < times - 1; i++) out.push(mid);
  out.push(deflateRawSync(block, { level: 9 }));
  return Buffer.concat(out);
}

/** Billion laughs: ten levels of ten references each (10^9 "lol"s if expanded). */
export function billionLaughs(root = "lolz"): string {
  const ns = root === "uscDoc" ? ' xmlns="http://xml.house.gov/schemas/uslm/1.0"' : "";
  const lines = ['<?xml version="1.0"?>', `<!DOCTYPE ${root} [`, ' <!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) lines.push(` <!ENTITY lol${i} "${`&lol${i === 1 ? "" : i - 1};`.repeat(10)}">`);
  lines.push("]>", `<${root}${ns}><title>Laughs</title><section><p>&lol9;</p></section></${root}>`, "");
  return lines.join("\n");
}

/**
 * Writes the hostile fixture set into `dir` (created) and returns what each file must do.
 * Good files are included so a test can check the ingest goes on and they stay searchable.
 */
export async function writeHostileFixtures(dir: string, sizes: FixtureSizes = {}): Promise<Fixture[]> {
  const longLine = sizes.longLineBytes ?? 50e6;
  const headings = sizes.headings ?? 10_000;
  const depth = sizes.depth ?? 1000;
  const bomb = sizes.bombBytes ?? 1 << 30;
  await mkdir(dir, { recursive: true });
  const fixtures: Fixture[] = [];
  const add = async (f: Fixture, content: string | Buffer) => {
    await writeFile(join(dir, f.name), content);
    fixtures.push(f);
  };

  await add(
    { name: "good-act.md", expect: "ok", marker: "zephyrquartz", why: "control: a well-formed act" },
    `# Good Act\n\n## Section 1 — Scope\n\nThis Act applies to every zephyrquartz registry.\n\n## Section 2 — Duties\n\n(a) The operator shall keep records.\n`,
  );
  await add({ name: "good-notes.txt", expect: "ok", marker: "quillbramble", why: "control: flat text" }, `Notes on quillbramble handling.\n\n${words(200, 1)}\n`);

  const binary = Buffer.alloc(4096);
  for (let i = 0; i < binary.length; i++) binary[i] = (i * 131 + 7) & 0xff;
  await add({ name: "binary.txt", expect: "error", codes: ["E_INPUT_BINARY", "E_UNSUPPORTED_TYPE"], why: "random bytes with NULs named .txt" }, binary);
  await add(
    { name: "invalid-utf8.md", expect: "error", codes: ["E_INPUT_ENCODING"], why: "a lone 0xC3 and an overlong 0xC0 0xAF in UTF-8 text" },
    Buffer.concat([Buffer.from("# Title\n\nSome text "), Buffer.from([0xc3, 0x28, 0xc0, 0xaf]), Buffer.from(" more text\n")]),
  );
  // A zero-byte file under a folder is skipped as `empty` (an empty __init__.py is not a failure); whitespace alone still fails.
  await add({ name: "blank.md", expect: "error", codes: ["E_INPUT_EMPTY"], why: "only whitespace" }, " \n\t\n\n   \n");
  const utf16 = `# UTF-16 Act\n\n## Section 1\n\nThe glimmerfjord rule applies in Zürich.\n`;
  await add({ name: "utf16le.md", expect: "ok", marker: "glimmerfjord", why: "UTF-16 LE with BOM" }, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, "utf16le")]));
  const be = Buffer.from(utf16.replace("glimmerfjord", "brambleskiff"), "utf16le");
  be.swap16();
  await add({ name: "utf16be.txt", expect: "ok", marker: "brambleskiff", why: "UTF-16 BE with BOM" }, Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
  await add(
    { name: "crlf.md", expect: "ok", marker: "cobblewhisk", why: "CRLF line ends" },
    "# CRLF Act\r\n\r\n## Section 1\r\n\r\nThe cobblewhisk duty.\r\n\r\n## Section 2\r\n\r\nMore text.\r\n",
  );
  const unit = "lorem ipsum dolor sit amet consectetur ";
  const line = ("mistletoad " + unit.repeat(Math.ceil(longLine / unit.length))).slice(0, longLine);
  await add({ name: "long-line.txt", expect: "ok", marker: "mistletoad", why: `${(longLine / 1e6).toFixed(0)} MB on one line` }, line);
  const hs: string[] = ["# Many Headings\n"];
  for (let i = 1; i <= headings; i++) hs.push(`## Section ${i}\n\nRule ${i}: ${i === headings ? "snorkelwane " : ""}${words(8, i)}.\n`);
  await add({ name: "many-headings.md", expect: "ok", marker: "snorkelwane", why: `${headings} headings` }, hs.join("\n"));
  const nested: string[] = ["DEEP REGULATION", ""];
  let num = "";
  for (let i = 1; i <= depth; i++) {
    num = num ? `${num}.1` : "1";
    nested.push(`${num} Level ${i} ${i === depth ? "fathomquill " : ""}${words(5, i)}`, "");
  }
  await add({ name: "deep-numbered.txt", expect: "ok", marker: "fathomquill", why: `${depth}-deep numbered units (1.1.1…)` }, nested.join("\n"));
  const list: string[] = ["# Deep List\n"];
  for (let i = 0; i < depth; i++) list.push(`${"  ".repeat(i)}- item ${i}${i === depth - 1 ? " wobbleprism" : ""}`);
  await add({ name: "deep-list.md", expect: "ok", marker: "wobbleprism", why: `${depth}-deep nested list` }, list.join("\n") + "\n");
  await add(
    { name: "unbalanced-fences.md", expect: "ok", marker: "grumblefin", why: "a fence opened and never closed, a stray closing fence" },
    "# Fences\n\n## Section 1\n\nThe grumblefin rule.\n\n```\n# not a heading\n\n## Section 2\n\n~~~\nunclosed\n\n````\n",
  );
  await add({ name: "bomb.docx", expect: "error", codes: ["E_INPUT_TOO_LARGE"], why: `zip entry that inflates to ${(bomb / 2 ** 20).toFixed(0)} MiB, sizes lie` }, zipBomb(bomb));
  await add({ name: "fake.pdf", expect: "error", codes: ["E_PARSE", "E_UNSUPPORTED_TYPE", "E_INPUT_BINARY"], why: "%PDF header then garbage" }, Buffer.concat([Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog"), Buffer.alloc(512, 0xaa)]));
  await add({ name: "text-named.pdf", expect: "error", codes: ["E_PARSE", "E_UNSUPPORTED_TYPE"], why: "plain text with a .pdf extension" }, "Plain text named pdf about plinthgrove.\n");
  await add({ name: "billion-laughs.xml", expect: "ok", marker: "lol9", why: "entity expansion under an unknown root: read as text, never expanded" }, billionLaughs("lolz"));
  await add({ name: "billion-laughs-rfc.xml", expect: "error", codes: ["E_PARSE", "E_INPUT_TOO_LARGE"], why: "entity expansion in an xml2rfc document" }, billionLaughs("rfc"));
  await add({ name: "billion-laughs-uslm.xml", expect: "error", codes: ["E_PARSE", "E_INPUT_TOO_LARGE"], why: "entity expansion in a USLM document" }, billionLaughs("uscDoc"));

  const loop = join(dir, "loop");
  await mkdir(loop, { recursive: true });
  await writeFile(join(loop, "inside.md"), "# Inside\n\nThe tanglewisp rule in a folder with a loop.\n");
  fixtures.push({ name: "loop/inside.md", expect: "ok", marker: "tanglewisp", why: "file next to symlink loops" });
  await symlink("..", join(loop, "up"));
  await symlink("self.md", join(loop, "self.md"));
  await symlink("b.md", join(loop, "a.md"));
  await symlink("a.md", join(loop, "b.md"));
  fixtures.push(
    { name: "loop/self.md", expect: "error", codes: ["E_INPUT_NOT_FOUND"], why: "symlink to itself" },
    { name: "loop/a.md", expect: "error", codes: ["E_INPUT_NOT_FOUND"], why: "symlink cycle a → b → a" },
    { name: "loop/b.md", expect: "error", codes: ["E_INPUT_NOT_FOUND"], why: "symlink cycle b → a → b" },
  );
  return fixtures;
}
