import { HierdocError } from "@hierdoc/core";

/**
 * A built resolver as flat data (see `SectionResolver.exportState`): `keys` holds the strings it uses
 * (ids, types, source paths, names), `data` indexes into them and into the caller's chunk list. Layout:
 * entry count, (source key, section id key, chunk position) per entry; then the bare-id map and the
 * first-child map, each as a key count and per key its key index, target count and (entry, type key or -1)
 * per target; then the names: source count, per source its key, name count and name keys.
 */
export interface SectionResolverState {
  keys: string[];
  data: Int32Array;
}

/** The caller's chunk list by position, as a {@link SectionResolverState} names chunks. */
export interface ResolverChunkList {
  readonly count: number;
  idAt(position: number): string | undefined;
}

/** One target of a flat resolver: where its entry is, its id type, and how to read its chunk. */
export interface FlatTarget {
  sourcePath: string;
  sectionId: string;
  type: string | null;
  chunkId(): string;
}

/**
 * A {@link SectionResolverState} read in place: targets stay in the int32 data and one map entry per key
 * points at them; a target's strings and chunk id are read when a reference resolves to it.
 */
export class FlatResolverTargets {
  private readonly byBare = new Map<string, number>();
  private readonly firstChild = new Map<string, number>();
  /** Normalised names each source is cited by. */
  readonly names = new Map<string, Set<string>>();
  private readonly entryCount: number;

  /**
   * @param chunks the chunk list by position, or a function giving the chunk id at a position (each entry's
   * chunk is then checked now)
   * @throws HierdocError E_INDEX_CORRUPT when the state is inconsistent.
   */
  constructor(
    private readonly state: SectionResolverState,
    private readonly chunks: ResolverChunkList | ((position: number) => string | undefined),
  ) {
    const { keys, data } = state;
    const bad = (why: string) => new HierdocError("E_INDEX_CORRUPT", `persisted section resolver is unusable: ${why}`);
    let at = 0;
    const next = () => {
      if (at >= data.length) throw bad("truncated");
      return data[at++];
    };
    const key = (nullable: boolean) => {
      const k = next();
      if (k === -1 && nullable) return null;
      if (!(k >= 0 && k < keys.length)) throw bad(k === -1 ? "missing string" : `key ${k} out of range`);
      return keys[k];
    };
    this.entryCount = next();
    for (let i = 0; i < this.entryCount; i++) {
      key(false);
      key(false);
      const pos = next();
      const ok = typeof chunks === "function" ? chunks(pos) !== undefined : pos >= 0 && pos < chunks.count;
      if (!ok) throw bad("chunk position out of range");
    }
    for (const map of [this.byBare, this.firstChild]) {
      for (let k = next(); k > 0; k--) {
        map.set(key(false)!, at);
        for (let j = next(); j > 0; j--) {
          const e = next();
          if (!(e >= 0 && e < this.entryCount)) throw bad("entry out of range");
          key(true);
        }
      }
    }
    for (let k = next(); k > 0; k--) {
      const source = key(false)!;
      const names = new Set<string>();
      for (let j = next(); j > 0; j--) names.add(key(false)!);
      this.names.set(source, names);
    }
    if (at !== data.length) throw bad("trailing data");
  }

  /**
   * The state again, each entry's chunk renumbered by `positionOf` (a caller's new chunk list); null when a
   * chunk has no position there.
   */
  exportState(positionOf: (chunkId: string) => number | undefined): SectionResolverState | null {
    const data = Int32Array.from(this.state.data);
    const chunks = this.chunks;
    for (let i = 0, e = 1; i < this.entryCount; i++, e += 3) {
      const id = typeof chunks === "function" ? chunks(data[e + 2]) : chunks.idAt(data[e + 2]);
      const pos = id === undefined ? undefined : positionOf(id);
      if (pos === undefined) return null;
      data[e + 2] = pos;
    }
    return { keys: [...this.state.keys], data };
  }

  /** The first target under a bare id (`firstChild`: the first unit under it) that `fits`; undefined when none. */
  find(bare: string, firstChild: boolean, fits: (sourcePath: string, type: string | null) => boolean): FlatTarget | undefined {
    const at = (firstChild ? this.firstChild : this.byBare).get(bare);
    if (at === undefined) return undefined;
    const { keys, data } = this.state;
    for (let j = 0, o = at + 1; j < data[at]; j++, o += 2) {
      const e = 1 + 3 * data[o];
      const sourcePath = keys[data[e]];
      const type = data[o + 1] < 0 ? null : keys[data[o + 1]];
      if (!fits(sourcePath, type)) continue;
      const pos = data[e + 2];
      const chunks = this.chunks;
      return { sourcePath, sectionId: keys[data[e + 1]], type, chunkId: () => (typeof chunks === "function" ? chunks(pos) : chunks.idAt(pos))! };
    }
    return undefined;
  }
}
