import { HierdocError } from "@hierdoc/core";

/**
 * The built exact index as flat data, for a caller that persists it next to the chunks it was built from
 * (see `ExactIndex.exportState`): `keys` are the ids, kinds and titles it uses; `data` holds chunk
 * positions (into the caller's chunk list) and indexes into `keys`. Layout: entry count, the entries'
 * positions in insertion order; number-key count, then per key its key index, posting count and
 * (position, kind key or -1, own 1/0) per posting; title count, then per title its key index, count and positions.
 */
export interface ExactIndexState {
  keys: string[];
  data: Int32Array;
}

/** The chunk fields the exact index reads (a ChunkRecord fits). */
export interface ExactChunk {
  id: string;
  sectionId: string;
  sectionAliases?: string[];
  unitIds?: string[];
}

/** The caller's chunk list by position, as an {@link ExactIndexState} names chunks. */
export interface ExactChunkList {
  readonly count: number;
  idAt(position: number): string | undefined;
  positionOf(id: string): number | undefined;
  chunkAt(position: number): ExactChunk | undefined;
}

/** An array of chunks as an {@link ExactChunkList} (ids are looked up through a map built on first use). */
export function exactChunkList(chunks: readonly ExactChunk[]): ExactChunkList {
  let positions: Map<string, number> | null = null;
  return {
    count: chunks.length,
    idAt: (p) => chunks[p]?.id,
    positionOf: (id) => (positions ??= new Map(chunks.map((c, i) => [c.id, i]))).get(id),
    chunkAt: (p) => chunks[p],
  };
}

/** Visits one posting: the chunk at `position`, its id kind key (-1 for none) and whether the id is the chunk's own. */
export type PostingVisitor = (position: number, kind: string | null, own: boolean) => void;

/**
 * An {@link ExactIndexState} read in place: the postings stay in the int32 data, one map entry per key
 * points at them, and chunks are named by position until a lookup returns them. Chunks removed later are
 * marked and skipped (the data is never rewritten).
 */
export class FlatExactPostings {
  /** Insertion rank of each chunk position in the index; -1 when the index does not hold the chunk (or no longer). */
  readonly seq: Int32Array;
  /** Number of chunks the state was written with. */
  readonly entryCount: number;
  /** Chunks removed since (their postings are skipped). */
  private removedCount = 0;
  private readonly byNumber = new Map<string, number>();
  private readonly byTitle = new Map<string, number>();

  /** @throws HierdocError E_INDEX_CORRUPT when the state does not fit the chunks. */
  constructor(
    private readonly state: ExactIndexState,
    readonly chunks: ExactChunkList,
  ) {
    const { keys, data } = state;
    const bad = (why: string) => new HierdocError("E_INDEX_CORRUPT", `persisted exact index is unusable: ${why}`);
    let at = 0;
    const next = () => {
      if (at >= data.length) throw bad("truncated");
      return data[at++];
    };
    const pos = () => {
      const p = next();
      if (!(p >= 0 && p < chunks.count)) throw bad(`chunk position ${p} out of range`);
      return p;
    };
    const key = (nullable: boolean) => {
      const k = next();
      if (!(k < keys.length && (k >= 0 || (nullable && k === -1)))) throw bad(`key ${k} out of range`);
      return k;
    };
    this.seq = new Int32Array(chunks.count).fill(-1);
    this.entryCount = next();
    for (let i = 0; i < this.entryCount; i++) this.seq[pos()] = i;
    for (let k = next(); k > 0; k--) {
      this.byNumber.set(keys[key(false)], at);
      for (let j = next(); j > 0; j--) {
        pos();
        key(true);
        next();
      }
    }
    for (let k = next(); k > 0; k--) {
      this.byTitle.set(keys[key(false)], at);
      for (let j = next(); j > 0; j--) pos();
    }
    if (at !== data.length) throw bad("trailing data");
  }

  /** Chunks the index still holds. */
  get size(): number {
    return this.entryCount - this.removedCount;
  }

  /** The position of a chunk id the index still holds; undefined otherwise. */
  positionOf(chunkId: string): number | undefined {
    const p = this.chunks.positionOf(chunkId);
    return p !== undefined && this.seq[p] >= 0 ? p : undefined;
  }

  /** Forgets the chunk at a position (its postings are skipped from now on). */
  remove(position: number): void {
    if (this.seq[position] < 0) return;
    this.seq[position] = -1;
    this.removedCount++;
  }

  /** Visits the postings of a number key ("17", "6(1)") of the chunks still held. */
  eachPosting(number: string, visit: PostingVisitor): void {
    const at = this.byNumber.get(number);
    if (at === undefined) return;
    const { data, keys } = this.state;
    for (let j = 0, o = at + 1; j < data[at]; j++, o += 3) {
      if (this.seq[data[o]] >= 0) visit(data[o], data[o + 1] < 0 ? null : keys[data[o + 1]], data[o + 2] === 1);
    }
  }

  /** The positions of the chunks still held that an unnumbered title (normalised) is the own id of. */
  titlePositions(title: string): number[] {
    const at = this.byTitle.get(title);
    if (at === undefined) return [];
    return Array.from(this.state.data.subarray(at + 1, at + 1 + this.state.data[at])).filter((p) => this.seq[p] >= 0);
  }

  /** The positions of the chunks still held, in insertion order. */
  entryPositions(): number[] {
    return Array.from(this.state.data.subarray(1, 1 + this.entryCount)).filter((p) => this.seq[p] >= 0);
  }

  /** Every number key and title with its postings, as the maps of a mutable index hold them. */
  *numberKeys(): IterableIterator<string> {
    yield* this.byNumber.keys();
  }

  *titleKeys(): IterableIterator<string> {
    yield* this.byTitle.keys();
  }
}
