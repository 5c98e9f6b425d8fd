import { createHash } from "node:crypto";
import type { ChunkRecord, ChunkType, CrossReference } from "@hierdoc/core";
import { sectionKey } from "@hierdoc/definitions";
import type { FlatCatalog } from "./flat-catalog.js";

/** What the tool keeps in memory about every stored chunk (no text, no vector). */
export interface CatalogEntry {
  id: string;
  sourcePath: string;
  chunkIndex: number;
  sectionId: string;
  sectionTitle: string;
  sectionAliases: string[];
  unitIds: string[];
  parentChain: string[];
  chunkType: ChunkType;
  fileHash: string;
  fileChunkCount: number;
  start: number;
  end: number;
  /**
   * The {@link citationKey} of every section the chunk's cross-references cite (sorted, distinct): which
   * chunks can cite a section, so `refs` reads only those records.
   */
  citedKeys: string[];
}

/**
 * The part of a section id a citation of it always shares: the first run of letters and digits of its
 * normalised form ("Article 6(1)(a)" → "6", "§ 478.11" → "478", "Section 4.2" → "4"; "" when it starts
 * otherwise, e.g. "(a)"). A reference resolves only to a section whose own id, alias or unit has the same key.
 */
export function citationKey(id: string): string {
  return /^[\p{L}\p{N}]*/u.exec(sectionKey(id).bare)![0];
}

/** {@link citationKey}s of the targets of cross-references, sorted and distinct (references without a target have none). */
export function citedKeysOf(refs: readonly CrossReference[] | undefined): string[] {
  if (!refs || refs.length === 0) return NO_STRINGS;
  const keys = new Set<string>();
  for (const r of refs) if (r.targetSectionId) keys.add(citationKey(r.targetSectionId));
  return [...keys].sort();
}

/** State of one ingested file as the store holds it. */
export interface FileState {
  sourcePath: string;
  fileHash: string;
  chunkIds: string[];
  /** False when fewer records are stored than the file produced (an interrupted write). */
  complete: boolean;
}

/** Shared by entries without aliases or units (most of them). */
const NO_STRINGS: string[] = Object.freeze([]) as unknown as string[];

/**
 * In-memory catalog of the stored chunks, rebuilt from the store on open: the source of file states
 * (for incremental ingestion), filters, section lookups and the index fingerprint. Entries share equal
 * strings and string lists (source path, file hash, section id and title, parent chain, …), which chunks
 * of one file or section repeat; shared lists are frozen. A persisted catalog is served in place
 * ({@link loadFlat}: no object per chunk until one is asked for); later puts go to the maps and deletes of
 * its entries are marked, so a change never copies it.
 */
export class Catalog {
  private readonly entries = new Map<string, CatalogEntry>();
  private readonly bySource = new Map<string, Set<string>>();
  private strings = new Map<string, string>();
  private lists = new Map<string, string[]>();
  /** Pool size at which unused pooled values are dropped (twice the size after the last clean-up). */
  private repoolAt = 65_536;
  /** {@link fingerprint} of the current entries, until the next change. */
  private cachedFingerprint: string | null = null;
  /**
   * Lane-wise sum (mod 2^32) of the digests of every entry's (id, file hash), kept up to date by puts and
   * deletes so {@link fingerprint} costs nothing after a small change; null when not known (a catalog loaded
   * with a fingerprint of the older, sorted-digest form: computed once on the next fingerprint).
   */
  private digestSum: Uint32Array | null = new Uint32Array(DIGEST_LANES);
  /** True after {@link load}: the pools are filled from the entries on the next put. */
  private poolStale = false;
  /** The persisted catalog served in place (its entries not in {@link removed}), beside the maps. */
  private flat: FlatCatalog | null = null;
  /** 1 at each position of {@link flat} deleted since it was loaded. */
  private removed = new Uint8Array(0);
  private removedCount = 0;
  /** Sources with a chunk of the served-in-place catalog deleted since it was loaded. */
  private removedSources = new Set<string>();

  /**
   * Replaces every entry with already built ones (a persisted catalog, in store order) whose strings and
   * lists are shared as the caller gives them; `fingerprint`, when given, is taken as the entries' digest.
   */
  load(entries: readonly CatalogEntry[], fingerprint?: string): void {
    this.flat = null;
    this.removed = new Uint8Array(0);
    this.removedCount = 0;
    this.removedSources = new Set();
    this.entries.clear();
    this.bySource.clear();
    this.strings = new Map();
    this.lists = new Map();
    for (const entry of entries) {
      this.entries.set(entry.id, entry);
      let set = this.bySource.get(entry.sourcePath);
      if (!set) this.bySource.set(entry.sourcePath, (set = new Set()));
      set.add(entry.id);
    }
    this.poolStale = true;
    this.cachedFingerprint = fingerprint ?? null;
    this.digestSum = fingerprint === undefined ? (entries.length === 0 ? new Uint32Array(DIGEST_LANES) : null) : parseDigestSum(fingerprint);
  }

  /**
   * Serves a persisted catalog in place (see {@link FlatCatalog}); `fingerprint`, when given, is taken as
   * its entries' digest. Entries put later are kept in the maps (after it in store order).
   */
  loadFlat(flat: FlatCatalog, fingerprint?: string): void {
    this.load([], fingerprint);
    this.flat = flat;
    this.removed = new Uint8Array(flat.count);
    if (fingerprint === undefined) this.digestSum = flat.count === 0 ? new Uint32Array(DIGEST_LANES) : null;
  }

  /** The position of an id in the served-in-place catalog when it is there and not deleted. */
  private flatPosition(id: string): number | undefined {
    const p = this.flat?.positionOf(id);
    return p !== undefined && this.removed[p] === 0 ? p : undefined;
  }

  /** The live positions of a source in the served-in-place catalog, in store order. */
  private flatRows(sourcePath: string): number[] {
    const rows = this.flat?.sources().get(sourcePath);
    if (!rows) return [];
    const out: number[] = [];
    for (const p of rows) if (this.removed[p] === 0) out.push(p);
    return out;
  }

  /**
   * Adds or replaces the entry of a record and returns it. The entry keeps no reference to the record
   * (its text, context and definitions are not held).
   */
  put(record: ChunkRecord): CatalogEntry {
    this.delete(record.id);
    this.cachedFingerprint = null;
    if (this.poolStale) {
      this.poolStale = false;
      this.repool();
    }
    const entry: CatalogEntry = {
      id: record.id,
      sourcePath: this.str(record.sourcePath),
      chunkIndex: record.chunkIndex,
      sectionId: this.str(record.sectionId),
      sectionTitle: this.str(record.sectionTitle),
      sectionAliases: this.list(record.sectionAliases),
      unitIds: this.list(record.unitIds),
      parentChain: this.list(record.parentChain),
      chunkType: record.chunkType,
      fileHash: this.str(record.fileHash),
      fileChunkCount: record.fileChunkCount ?? 0,
      start: record.start,
      end: record.end,
      citedKeys: this.list((record as Partial<CatalogEntry>).citedKeys ?? citedKeysOf(record.crossReferences)),
    };
    this.entries.set(entry.id, entry);
    let set = this.bySource.get(entry.sourcePath);
    if (!set) this.bySource.set(entry.sourcePath, (set = new Set()));
    set.add(entry.id);
    if (this.digestSum) addDigest(this.digestSum, entry, 1);
    if (this.strings.size + this.lists.size > this.repoolAt) this.repool();
    return entry;
  }

  /** The pooled instance of a string (values that are not strings are returned as they are). */
  private str<T>(value: T): T {
    if (typeof value !== "string") return value;
    const known = this.strings.get(value);
    if (known !== undefined) return known as T;
    this.strings.set(value, value);
    return value;
  }

  /** The pooled, frozen instance of a string list; `undefined` and empty lists are one shared empty list. */
  private list(values: string[] | undefined): string[] {
    if (!values || values.length === 0) return NO_STRINGS;
    const key = values.join("\u0000");
    const known = this.lists.get(key);
    if (known !== undefined && known.length === values.length && known.every((v, i) => v === values[i])) return known;
    const list = Object.freeze(values.map((v) => this.str(v))) as unknown as string[];
    this.lists.set(key, list);
    return list;
  }

  /** Drops pooled values no entry uses any more (after many replacements and deletions). */
  private repool(): void {
    const strings = new Map<string, string>();
    const lists = new Map<string, string[]>();
    const keep = (v: unknown): void => {
      if (typeof v === "string") strings.set(v, v);
    };
    const keepList = (l: string[]): void => {
      if (l.length === 0) return;
      lists.set(l.join("\u0000"), l);
      l.forEach(keep);
    };
    for (const e of this.entries.values()) {
      [e.sourcePath, e.sectionId, e.sectionTitle, e.fileHash].forEach(keep);
      [e.sectionAliases, e.unitIds, e.parentChain, e.citedKeys].forEach(keepList);
    }
    this.strings = strings;
    this.lists = lists;
    this.repoolAt = Math.max(65_536, 2 * (strings.size + lists.size));
  }

  delete(id: string): void {
    const p = this.flatPosition(id);
    if (p !== undefined) {
      this.removed[p] = 1;
      this.removedCount++;
      this.cachedFingerprint = null;
      const old = this.flat!.entryAt(p)!;
      this.removedSources.add(old.sourcePath);
      if (this.digestSum) addDigest(this.digestSum, { id, fileHash: old.fileHash }, -1);
      return;
    }
    const old = this.entries.get(id);
    if (!old) return;
    this.cachedFingerprint = null;
    if (this.digestSum) addDigest(this.digestSum, old, -1);
    this.entries.delete(id);
    const set = this.bySource.get(old.sourcePath);
    set?.delete(id);
    if (set && set.size === 0) this.bySource.delete(old.sourcePath);
  }

  get(id: string): CatalogEntry | undefined {
    const own = this.entries.get(id);
    if (own || !this.flat) return own;
    const p = this.flatPosition(id);
    return p === undefined ? undefined : this.flat.entryAt(p);
  }

  /**
   * What changed since a persisted catalog was loaded ({@link loadFlat}); null when none is served. `baseCount`:
   * the entries of the persisted catalog; `removed`:
   * its positions deleted; `added`: the entries put since, in store order; `sources`: every source with a
   * removed or added entry (all of whose current entries are then among `added`).
   */
  changesSinceLoad(): { baseCount: number; removed: number[]; added: CatalogEntry[]; sources: Set<string> } | null {
    if (!this.flat) return null;
    const removed: number[] = [];
    if (this.removedCount > 0) for (let p = 0; p < this.removed.length; p++) if (this.removed[p] === 1) removed.push(p);
    return { baseCount: this.flat.count, removed, added: [...this.entries.values()], sources: new Set([...this.removedSources, ...this.bySource.keys()]) };
  }

  /** Number of entries put or deleted since a persisted catalog was loaded (0 when none is served). */
  get changeCount(): number {
    return this.flat ? this.removedCount + this.entries.size : 0;
  }

  /** Takes `fingerprint` (of the {@link fingerprint} form) as the current entries' digest, until the next change. */
  adoptFingerprint(fingerprint: string): void {
    this.cachedFingerprint = fingerprint;
    this.digestSum = parseDigestSum(fingerprint);
  }

  get size(): number {
    return (this.flat ? this.flat.count - this.removedCount : 0) + this.entries.size;
  }

  /**
   * Every entry in store order (a persisted catalog builds each as it is reached). `ids: false` is for a pass
   * that reads no id: entries of a persisted catalog then have an empty `id` (no id is decoded).
   */
  *all(options: { ids?: boolean } = {}): IterableIterator<CatalogEntry> {
    const flat = this.flat;
    if (flat) {
      const id = options.ids === false ? "none" : "decode";
      for (let p = 0; p < flat.count; p++) if (this.removed[p] === 0) yield flat.entryAt(p, id)!;
    }
    yield* this.entries.values();
  }

  /** Ids of the chunks whose {@link CatalogEntry.citedKeys} hold one of `keys`, in store order. */
  idsCiting(keys: ReadonlySet<string>): string[] {
    const out: string[] = [];
    const flat = this.flat;
    if (flat) for (const p of flat.positionsCiting(keys)) if (this.removed[p] === 0) out.push(flat.idAt(p)!);
    for (const e of this.entries.values()) if (e.citedKeys.some((k) => keys.has(k))) out.push(e.id);
    return out;
  }

  sources(): string[] {
    const out = new Set(this.bySource.keys());
    if (this.flat) {
      for (const [source, rows] of this.flat.sources()) {
        if (this.removedCount === 0 || rows.some((p) => this.removed[p] === 0)) out.add(source);
      }
    }
    return [...out].sort();
  }

  idsOf(sourcePath: string): string[] {
    const own = [...(this.bySource.get(sourcePath) ?? [])];
    const flat = this.flat;
    return flat ? [...this.flatRows(sourcePath).map((p) => flat.idAt(p)!), ...own] : own;
  }

  /** The entries of one source, in store order. */
  entriesOf(sourcePath: string): CatalogEntry[] {
    const own = [...(this.bySource.get(sourcePath) ?? [])].map((id) => this.entries.get(id)!);
    const flat = this.flat;
    return flat ? [...this.flatRows(sourcePath).map((p) => flat.entryAt(p, "decode")!), ...own] : own;
  }

  /** The stored state of a file, or undefined when none of its chunks is stored. */
  fileState(sourcePath: string): FileState | undefined {
    const rows = this.entriesOf(sourcePath);
    if (rows.length === 0) return undefined;
    const ids = rows.map((e) => e.id);
    const first = rows[0];
    const hashes = new Set(rows.map((e) => e.fileHash));
    return {
      sourcePath,
      fileHash: first.fileHash,
      chunkIds: ids,
      complete: hashes.size === 1 && ids.length === first.fileChunkCount,
    };
  }

  /**
   * A digest of (chunk id, file hash) over every entry, order-free: `count:s` and the lane-wise sum of each
   * pair's SHA-256 (first 128 bits). Puts and deletes keep the sum, so after a small change it costs
   * nothing; a persisted derived index built for another digest is stale and is rebuilt from the store.
   */
  fingerprint(): string {
    if (this.cachedFingerprint !== null) return this.cachedFingerprint;
    if (!this.digestSum) {
      const sum = new Uint32Array(DIGEST_LANES);
      for (const e of this.all()) addDigest(sum, e, 1);
      this.digestSum = sum;
    }
    this.cachedFingerprint = `${this.size}:s${Buffer.from(this.digestSum.buffer, this.digestSum.byteOffset, this.digestSum.byteLength).toString("hex")}`;
    return this.cachedFingerprint;
  }
}

/** 32-bit lanes of the per-entry digest summed by {@link Catalog.fingerprint} (128 bits). */
const DIGEST_LANES = 4;

/** Adds (`sign` 1) or subtracts (-1) the digest of an entry's (id, file hash) to a lane-wise sum. */
function addDigest(sum: Uint32Array, entry: { id: string; fileHash: string }, sign: 1 | -1): void {
  const d = createHash("sha256").update(`${entry.id}\u0000${entry.fileHash}`).digest();
  for (let i = 0; i < DIGEST_LANES; i++) sum[i] += sign * d.readUInt32LE(4 * i);
}

/** The digest sum a fingerprint of the current form carries (stored little-endian as hex), else null. */
function parseDigestSum(fingerprint: string): Uint32Array | null {
  const m = /^\d+:s([0-9a-f]{32})$/.exec(fingerprint);
  if (!m) return null;
  const bytes = Buffer.from(m[1], "hex");
  const sum = new Uint32Array(DIGEST_LANES);
  for (let i = 0; i < DIGEST_LANES; i++) sum[i] = bytes.readUInt32LE(4 * i);
  return sum;
}
