import { HierdocError } from "@hierdoc/core";
import { fileError } from "./errors.js";
import { isZip } from "./sniff.js";
import { checkZipBomb, readZipEntries, readZipEntry, type ZipEntry } from "./zip-guard.js";
import { parseXml, type XmlElement, type XmlLimits } from "./xml-tree.js";

/** Limits shared by the zip-based converters (PPTX, XLSX, ODT, EPUB). */
export interface ArchiveLimits {
  /** Largest total uncompressed size of the archive (default 256 MiB). */
  maxUncompressedBytes?: number;
  /** Most entries in the archive (default 10,000). */
  maxEntries?: number;
  /** XML limits of every part read (entities, expansion, depth); see {@link parseXml}. */
  xml?: XmlLimits;
}

/** Default zip-bomb limit of the office converters: 256 MiB uncompressed. */
export const DEFAULT_ARCHIVE_LIMIT = 256 * 1024 * 1024;

/**
 * A zip archive that passed the zip-bomb guard, with safe readers for its parts. Entry names are looked up
 * exactly and, failing that, case-insensitively (office writers disagree on case).
 */
export class OfficeArchive {
  private readonly byName = new Map<string, ZipEntry>();
  private readonly byLowerName = new Map<string, ZipEntry>();

  private constructor(
    readonly path: string,
    private readonly bytes: Uint8Array,
    readonly entries: ZipEntry[],
    private readonly limits: ArchiveLimits,
  ) {
    for (const e of entries) {
      this.byName.set(e.name, e);
      this.byLowerName.set(e.name.toLowerCase(), e);
    }
  }

  /**
   * Reads the central directory and refuses zip bombs (declared sizes, then capped inflation).
   *
   * @throws HierdocError E_PARSE when the bytes are not a zip (`what` names the expected format),
   *   E_INPUT_TOO_LARGE for a zip bomb or too many entries.
   */
  static open(path: string, bytes: Uint8Array, what: string, limits: ArchiveLimits = {}): OfficeArchive {
    const entries = isZip(bytes) ? readZipEntries(bytes) : null;
    if (!entries) throw fileError("E_PARSE", path, `not a ${what} file: the bytes are not a zip archive`);
    checkZipBomb(path, bytes, entries, {
      maxUncompressedBytes: limits.maxUncompressedBytes ?? DEFAULT_ARCHIVE_LIMIT,
      maxEntries: limits.maxEntries,
    });
    return new OfficeArchive(path, bytes, entries, limits);
  }

  /** The entry called `name`, or undefined. */
  entry(name: string): ZipEntry | undefined {
    const clean = name.replace(/^\/+/, "");
    return this.byName.get(clean) ?? this.byLowerName.get(clean.toLowerCase());
  }

  /** True when the archive holds `name`. */
  has(name: string): boolean {
    return this.entry(name) !== undefined;
  }

  /** The bytes of `name`, inflated with a cap; undefined when absent. */
  bytesOf(name: string): Uint8Array | undefined {
    const e = this.entry(name);
    if (!e) return undefined;
    return readZipEntry(this.path, this.bytes, e, this.limits.maxUncompressedBytes ?? DEFAULT_ARCHIVE_LIMIT);
  }

  /** The UTF-8 text of `name` (BOM removed); undefined when absent. @throws HierdocError E_PARSE on bad UTF-8. */
  textOf(name: string): string | undefined {
    const b = this.bytesOf(name);
    if (!b) return undefined;
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(b).replace(/^\uFEFF/, "");
    } catch (cause) {
      throw fileError("E_PARSE", this.path, `${name} is not valid UTF-8`, { cause, details: { entry: name } });
    }
  }

  /**
   * Parses the XML part `name` with the safe parser (flat entities only, bounded expansion and depth).
   * Errors name the part (`file.pptx:ppt/slides/slide1.xml`).
   *
   * @throws HierdocError E_PARSE when the part is missing (if `required`) or not well-formed.
   */
  xml(name: string, required: true): XmlElement;
  xml(name: string, required?: boolean): XmlElement | undefined;
  xml(name: string, required = false): XmlElement | undefined {
    const text = this.textOf(name);
    if (text === undefined) {
      if (required) throw fileError("E_PARSE", this.path, `the archive has no ${name}`, { details: { entry: name } });
      return undefined;
    }
    try {
      return parseXml(`${this.path}:${name}`, text, this.limits.xml);
    } catch (err) {
      if (err instanceof HierdocError) Object.assign(err.details, { file: this.path, entry: name });
      throw err;
    }
  }
}

/** Resolves a relationship target (`../media/a.png`, `slides/slide1.xml`) against the part that names it. */
export function resolvePart(fromPart: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const base = fromPart.includes("/") ? fromPart.slice(0, fromPart.lastIndexOf("/") + 1) : "";
  const out: string[] = [];
  for (const seg of (base + target).split("/")) {
    if (seg === "..") out.pop();
    else if (seg !== "." && seg !== "") out.push(seg);
  }
  return out.join("/");
}

/** The relationships of an OOXML part (`ppt/presentation.xml` → `ppt/_rels/presentation.xml.rels`): id → target part. */
export function readRelationships(archive: OfficeArchive, part: string): Map<string, { target: string; type: string }> {
  const slash = part.lastIndexOf("/");
  const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  const out = new Map<string, { target: string; type: string }>();
  const rels = archive.xml(relsName);
  if (!rels) return out;
  for (const r of rels.children) {
    if (typeof r === "string" || r.name !== "Relationship") continue;
    if (r.attrs.TargetMode === "External") continue;
    out.set(r.attrs.Id ?? "", { target: resolvePart(part, r.attrs.Target ?? ""), type: r.attrs.Type ?? "" });
  }
  return out;
}

/** True when `bytes` is a zip whose entries include `name` (content sniffing for `canConvert`). */
export function zipHasEntry(bytes: Uint8Array, name: string): boolean {
  if (!isZip(bytes)) return false;
  return readZipEntries(bytes)?.some((e) => e.name === name) ?? false;
}

/** The stored `mimetype` entry of an OpenDocument / EPUB zip (first entry, uncompressed), or null. */
export function zipMimetype(bytes: Uint8Array): string | null {
  if (!isZip(bytes) || bytes.length < 38) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nameLength = view.getUint16(26, true);
  const extraLength = view.getUint16(28, true);
  const name = new TextDecoder().decode(bytes.subarray(30, 30 + nameLength));
  if (name !== "mimetype" || view.getUint16(8, true) !== 0) return null;
  const size = view.getUint32(18, true);
  const start = 30 + nameLength + extraLength;
  if (size > 200) return null;
  return new TextDecoder().decode(bytes.subarray(start, start + size)).trim();
}
