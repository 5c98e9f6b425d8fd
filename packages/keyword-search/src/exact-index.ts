import { join } from "node:path";
import type { ScoredId } from "@hierdoc/core";
import { HierdocError, readTextIfExists, StringTable } from "@hierdoc/core";
import { writeFileAtomic } from "./atomic-write.js";
import { FlatExactPostings, exactChunkList, type ExactChunk, type ExactChunkList, type ExactIndexState } from "./exact-state.js";
import { findQuotedPhrases, findSectionIds, numberPrefixes, parseSectionId, parseSectionIdList, type ParsedSectionId } from "./section-id.js";

/** Options of {@link ExactIndex}. */
export interface ExactIndexOptions {
  /** Text of a chunk, for quoted-phrase lookup; without it quoted phrases are ignored. */
  text?: (chunkId: string) => string | undefined;
}

/** Options of {@link ExactIndex.lookup}. */
export interface ExactLookupOptions {
  allowIds?: ReadonlySet<string>;
  /** Limit quoted-phrase scanning to these chunks (e.g. the keyword leg's candidates); default all. */
  phraseCandidates?: Iterable<string>;
}

interface Posting {
  chunkId: string;
  kind: string | null;
  own: boolean;
}

/** What the index keeps per chunk: the chunk itself (its ids are read when needed), or the ids given to `add`. */
interface Entry {
  chunk: ExactChunk | null;
  own: string[] | null;
  units: string[] | null;
  seq: number;
}

/** Score tiers: own section id with the query's kind, unit with the kind, own id bare, unit bare, phrase. */
export const EXACT_TIERS = { ownKind: 4, unitKind: 3, ownBare: 2, unitBare: 1, phrase: 0.5 } as const;

/** Kinds that, next to a more specific id ("title 35 section 101"), only qualify it and are not looked up. */
const CONTAINER_KINDS = new Set(["title", "chapter", "part"]);

/** File name of a persisted exact index inside its folder. */
export const EXACT_FILE_NAME = "exact.json";

/**
 * Section id → chunk ids, over canonical ids, aliases and unit ids. `lookup` ranks chunks whose own
 * section matches above chunks that only contain a matching unit, and a matching kind ("Article 4")
 * above a bare number; a missing id falls back to its longest present prefix. Small (one entry per id):
 * persisted as JSON, or rebuilt from the store's records in milliseconds. An imported state
 * ({@link importState}) is served in place: chunks added later go to the maps, removed ones are marked in it.
 */
export class ExactIndex {
  private readonly byNumber = new Map<string, Posting[]>();
  private readonly byTitle = new Map<string, string[]>();
  private readonly entries = new Map<string, Entry>();
  private seq = 0;
  private readonly text?: (chunkId: string) => string | undefined;
  /** The imported state served in place, beside the maps (which hold the chunks added since). */
  private flat: FlatExactPostings | null = null;

  constructor(options: ExactIndexOptions = {}) {
    this.text = options.text;
  }

  /** Number of chunks indexed. */
  get size(): number {
    return (this.flat?.size ?? 0) + this.entries.size;
  }

  /**
   * Maps a chunk to its own section ids (canonical id and aliases) and to the unit ids that start inside
   * it. Replaces what was indexed for the chunk before.
   */
  add(chunkId: string, ids: string[], unitIds: string[] = []): void {
    if (this.entries.has(chunkId) || this.flat?.positionOf(chunkId) !== undefined) this.remove([chunkId]);
    this.entries.set(chunkId, { chunk: null, own: [...ids], units: [...unitIds], seq: this.seq++ });
    for (const id of ids) this.addKey(chunkId, id, true);
    for (const id of unitIds) this.addKey(chunkId, id, false);
  }

  /** {@link add} for a chunk record: `sectionId` + `sectionAliases` own, `unitIds` as units. */
  addChunk(chunk: ExactChunk): void {
    this.add(chunk.id, ownIds(chunk), chunk.unitIds ?? []);
  }

  /** Forgets chunks; unknown ids are ignored. */
  remove(chunkIds: Iterable<string>): void {
    const flat = this.flat;
    if (flat) {
      const rest: string[] = [];
      for (const id of chunkIds) {
        const p = flat.positionOf(id);
        if (p === undefined) rest.push(id);
        else flat.remove(p);
      }
      chunkIds = rest;
    }
    const gone = new Set<string>();
    const numbers = new Set<string>();
    const titles = new Set<string>();
    for (const id of chunkIds) {
      const entry = this.entries.get(id);
      if (!entry) continue;
      this.entries.delete(id);
      gone.add(id);
      for (const raw of [...entryOwn(entry), ...entryUnits(entry)]) {
        const parsed = parseSectionIdList(raw);
        if (parsed.length === 0) titles.add(normTitle(raw));
        for (const p of parsed) numbers.add(p.number);
      }
    }
    if (gone.size === 0) return;
    for (const key of numbers) {
      const list = this.byNumber.get(key);
      if (!list) continue;
      const kept = list.filter((p) => !gone.has(p.chunkId));
      if (kept.length === 0) this.byNumber.delete(key);
      else this.byNumber.set(key, kept);
    }
    for (const key of titles) {
      const list = this.byTitle.get(key);
      if (!list) continue;
      const kept = list.filter((c) => !gone.has(c));
      if (kept.length === 0) this.byTitle.delete(key);
      else this.byTitle.set(key, kept);
    }
  }

  /**
   * Chunks matching the section ids (and quoted phrases) in a query, best first. The whole query is also
   * tried as one id ("17", an unnumbered title). Empty when the query names no indexed id.
   */
  lookup(query: string, options: ExactLookupOptions = {}): ScoredId[] {
    const best = new Map<string, number>();
    /** Insertion ranks of the hits of an imported state, read off their postings (no id search). */
    const seqs = new Map<string, number>();
    const keep = (chunkId: string, score: number) => {
      if (options.allowIds && !options.allowIds.has(chunkId)) return;
      if (score > (best.get(chunkId) ?? -Infinity)) best.set(chunkId, score);
    };
    let ids: ParsedSectionId[] = findSectionIds(query);
    if (ids.some((i) => !CONTAINER_KINDS.has(i.kind ?? ""))) ids = ids.filter((i) => !CONTAINER_KINDS.has(i.kind ?? ""));
    const whole = parseSectionId(query);
    if (whole && !ids.some((i) => i.number === whole.number && i.kind === whole.kind)) ids.push(whole);
    for (const id of ids) for (const [chunkId, score] of this.lookupId(id, seqs)) keep(chunkId, score);
    for (const p of this.flat?.titlePositions(normTitle(query)) ?? []) keep(this.flatId(p, seqs), EXACT_TIERS.ownKind);
    for (const chunkId of this.byTitle.get(normTitle(query)) ?? []) keep(chunkId, EXACT_TIERS.ownKind);
    if (this.text) {
      for (const phrase of findQuotedPhrases(query)) {
        const needle = normText(phrase);
        for (const chunkId of options.phraseCandidates ?? this.chunkIds()) {
          if (best.has(chunkId)) continue;
          const text = this.text(chunkId);
          if (text !== undefined && normText(text).includes(needle)) keep(chunkId, EXACT_TIERS.phrase);
        }
      }
    }
    return [...best]
      .map(([id, score]) => ({ id, score, seq: seqs.get(id) ?? this.seqOf(id) }))
      .sort((a, b) => b.score - a.score || a.seq - b.seq)
      .map(({ id, score }) => ({ id, score }));
  }

  /**
   * Chunks for one parsed id, falling back to the longest present prefix of its number. `seqs`, when given,
   * receives the insertion rank of hits read from an imported state.
   */
  lookupId(id: ParsedSectionId, seqs?: Map<string, number>): Map<string, number> {
    const levels = [id.number, ...numberPrefixes(id.number)];
    for (let step = 0; step < levels.length; step++) {
      const hits = new Map<string, number>();
      const visit = (chunkId: string, kind: string | null, own: boolean) => {
        if (id.kind && kind && kind !== id.kind) return;
        const kindMatch = id.kind !== null && kind === id.kind;
        const tier = own
          ? kindMatch ? EXACT_TIERS.ownKind : EXACT_TIERS.ownBare
          : kindMatch ? EXACT_TIERS.unitKind : EXACT_TIERS.unitBare;
        const score = tier / (1 + step);
        if (score > (hits.get(chunkId) ?? 0)) hits.set(chunkId, score);
      };
      this.flat?.eachPosting(levels[step], (p, kind, own) => visit(this.flatId(p, seqs), kind, own));
      for (const p of this.byNumber.get(levels[step]) ?? []) visit(p.chunkId, p.kind, p.own);
      if (hits.size > 0) return hits;
      if (step === 0 && !id.kind && !/[.(]/.test(id.number)) break;
    }
    return new Map();
  }

  /** JSON-safe content: `[chunkId, ownIds, unitIds]` per chunk in insertion order. */
  toJSON(): { format: "hierdoc-exact"; version: 1; fingerprint: string | null; chunks: Array<[string, string[], string[]]> } {
    const flat = this.flat;
    const base = (flat?.entryPositions() ?? []).map((p) => {
      const c = flat!.chunks.chunkAt(p)!;
      return [c.id, ownIds(c), c.unitIds ?? []] as [string, string[], string[]];
    });
    const added = [...this.entries].sort((a, b) => a[1].seq - b[1].seq).map(([id, e]) => [id, entryOwn(e), entryUnits(e)] as [string, string[], string[]]);
    const chunks = [...base, ...added];
    return { format: "hierdoc-exact", version: 1, fingerprint: this.fingerprint, chunks };
  }

  /** Fingerprint read by {@link ExactIndex.load} or set by the last save; null when none. */
  fingerprint: string | null = null;

  /**
   * Rebuilds an index from {@link toJSON} output.
   * @throws HierdocError E_INDEX_CORRUPT when the value is not one.
   */
  static fromJSON(value: unknown, options: ExactIndexOptions = {}): ExactIndex {
    const v = value as ReturnType<ExactIndex["toJSON"]>;
    if (!v || v.format !== "hierdoc-exact" || v.version !== 1 || !Array.isArray(v.chunks)) {
      throw new HierdocError("E_INDEX_CORRUPT", "not a hierdoc exact index (format hierdoc-exact, version 1)");
    }
    const index = new ExactIndex(options);
    index.fingerprint = v.fingerprint ?? null;
    for (const [id, own, units] of v.chunks) index.add(id, own, units);
    return index;
  }

  /** Writes `dir/exact.json` atomically. @throws HierdocError E_INTERNAL when it cannot be written. */
  async save(dir: string, options: { fingerprint?: string } = {}): Promise<void> {
    this.fingerprint = options.fingerprint ?? this.fingerprint;
    await writeFileAtomic(dir, EXACT_FILE_NAME, [Buffer.from(JSON.stringify(this.toJSON()), "utf8")]);
  }

  /**
   * Loads `dir/exact.json`; null when absent.
   * @throws HierdocError E_INDEX_CORRUPT when the file is not valid.
   */
  static async load(dir: string, options: ExactIndexOptions = {}): Promise<ExactIndex | null> {
    const file = join(dir, EXACT_FILE_NAME);
    const raw = await readTextIfExists(file);
    if (raw === null) return null;
    try {
      return ExactIndex.fromJSON(JSON.parse(raw), options);
    } catch (err) {
      throw new HierdocError("E_INDEX_CORRUPT", `exact index ${file} is unusable; rebuild it with ingest`, { cause: err, details: { file } });
    }
  }

  /**
   * The built index as flat data, chunks named by their position in the caller's chunk list (so the chunk
   * ids are stored once, by the caller). Loading it with {@link importState} parses no section id.
   * Returns null when a chunk of the index has no position.
   */
  exportState(positionOf: (chunkId: string) => number | undefined): ExactIndexState | null {
    const table = new StringTable();
    const flat = this.flat;
    let missing = false;
    const posOf = (id: string) => {
      const pos = positionOf(id);
      if (pos === undefined) missing = true;
      return pos ?? -1;
    };
    const flatPos = (p: number) => posOf(flat!.chunks.idAt(p)!);
    const data: number[] = [this.size];
    for (const p of flat?.entryPositions() ?? []) data.push(flatPos(p));
    for (const [id] of [...this.entries].sort((a, b) => a[1].seq - b[1].seq)) data.push(posOf(id));
    // Each key's postings: those read in place (still held), then those added since.
    const numbers = new Map<string, number[]>();
    const posting = (number: string, pos: number, kind: string | null, own: boolean) => {
      let list = numbers.get(number);
      if (!list) numbers.set(number, (list = []));
      list.push(pos, table.intern(kind), own ? 1 : 0);
    };
    for (const number of flat?.numberKeys() ?? []) flat!.eachPosting(number, (p, kind, own) => posting(number, flatPos(p), kind, own));
    for (const [number, list] of this.byNumber) for (const p of list) posting(number, posOf(p.chunkId), p.kind, p.own);
    data.push(numbers.size);
    for (const [number, list] of numbers) {
      data.push(table.intern(number), list.length / 3);
      for (const v of list) data.push(v);
    }
    const titles = new Map<string, number[]>();
    const titled = (title: string, pos: number) => {
      const list = titles.get(title);
      if (list) list.push(pos);
      else titles.set(title, [pos]);
    };
    for (const title of flat?.titleKeys() ?? []) for (const p of flat!.titlePositions(title)) titled(title, flatPos(p));
    for (const [title, list] of this.byTitle) for (const c of list) titled(title, posOf(c));
    data.push(titles.size);
    for (const [title, list] of titles) {
      data.push(table.intern(title), list.length);
      for (const v of list) data.push(v);
    }
    if (missing) return null;
    return { keys: table.strings, data: Int32Array.from(data) };
  }

  /**
   * Serves {@link exportState} output in place over the same chunk list (by position; an array or an
   * {@link ExactChunkList}): the postings stay flat and chunk ids are read when a lookup returns them. The
   * first change copies them into the maps (reading each chunk's ids from the list).
   * @throws HierdocError E_INDEX_CORRUPT when the state does not fit the chunks.
   */
  static importState(state: ExactIndexState, chunks: readonly ExactChunk[] | ExactChunkList, options: ExactIndexOptions = {}): ExactIndex {
    const index = new ExactIndex(options);
    index.flat = new FlatExactPostings(state, Array.isArray(chunks) ? exactChunkList(chunks) : (chunks as ExactChunkList));
    index.seq = index.flat.entryCount;
    return index;
  }

  /** The id of the chunk at a position of an imported state, noting its insertion rank in `seqs`. */
  private flatId(position: number, seqs?: Map<string, number>): string {
    const id = this.flat!.chunks.idAt(position)!;
    seqs?.set(id, this.flat!.seq[position]);
    return id;
  }

  /** Every indexed chunk id, in insertion order for an imported state. */
  private *chunkIds(): IterableIterator<string> {
    const flat = this.flat;
    if (flat) for (const p of flat.entryPositions()) yield flat.chunks.idAt(p)!;
    yield* this.entries.keys();
  }

  private addKey(chunkId: string, id: string, own: boolean): void {
    const parsedList = parseSectionIdList(id);
    if (parsedList.length === 0) {
      if (own) {
        const key = normTitle(id);
        if (!key) return;
        const list = this.byTitle.get(key) ?? [];
        if (!list.includes(chunkId)) list.push(chunkId);
        this.byTitle.set(key, list);
      }
      return;
    }
    for (const parsed of parsedList) {
      const list = this.byNumber.get(parsed.number) ?? [];
      if (!list.some((p) => p.chunkId === chunkId && p.kind === parsed.kind && p.own === own)) {
        list.push({ chunkId, kind: parsed.kind, own });
      }
      this.byNumber.set(parsed.number, list);
    }
  }

  private seqOf(chunkId: string): number {
    const own = this.entries.get(chunkId)?.seq;
    if (own !== undefined || !this.flat) return own ?? Number.MAX_SAFE_INTEGER;
    const p = this.flat.positionOf(chunkId);
    return p === undefined ? Number.MAX_SAFE_INTEGER : this.flat.seq[p];
  }
}

function ownIds(chunk: ExactChunk): string[] {
  return chunk.sectionAliases && chunk.sectionAliases.length > 0 ? [chunk.sectionId, ...chunk.sectionAliases] : [chunk.sectionId];
}

function entryOwn(e: Entry): string[] {
  return e.own ?? ownIds(e.chunk as ExactChunk);
}

function entryUnits(e: Entry): string[] {
  return e.units ?? (e.chunk as ExactChunk).unitIds ?? [];
}

function normTitle(s: string): string {
  return s.toLowerCase().replace(/\s+/g, " ").trim();
}

function normText(s: string): string {
  return s.toLowerCase().replace(/[\s\u00a0]+/g, " ");
}
