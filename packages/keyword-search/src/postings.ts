/** One term's postings: document slots and term frequencies, appended in slot order. */
export interface Postings {
  docs: Uint32Array;
  /** Two-byte tfs in a loaded segment; four-byte in postings that grow. */
  tfs: Uint32Array | Uint16Array;
  n: number;
}

/** A growable copy of `p` with room for `extra` more entries (four-byte tfs). */
export function growablePostings(p: Postings, extra: number): Postings {
  const cap = p.n + (p.n >>> 3) + extra;
  const docs = new Uint32Array(cap);
  docs.set(p.docs.subarray(0, p.n));
  const tfs = new Uint32Array(cap);
  tfs.set(p.tfs.subarray(0, p.n));
  return { docs, tfs, n: p.n };
}

/** A postings list with room for `capacity` entries. */
export function newPostings(capacity = 4): Postings {
  return { docs: new Uint32Array(capacity), tfs: new Uint32Array(capacity), n: 0 };
}

/** Appends one (slot, tf) entry, doubling the arrays when full. */
export function appendPosting(p: Postings, slot: number, tf: number): void {
  if (p.n === p.docs.length) {
    const cap = Math.max(4, p.docs.length * 2);
    const docs = new Uint32Array(cap);
    docs.set(p.docs);
    const tfs = new Uint32Array(cap);
    tfs.set(p.tfs);
    p.docs = docs;
    p.tfs = tfs;
  }
  p.docs[p.n] = slot;
  p.tfs[p.n] = tf;
  p.n++;
}

/** Doubles a typed array's capacity until it holds `need` entries. */
export function growU32(a: Uint32Array<ArrayBufferLike>, need: number): Uint32Array<ArrayBufferLike> {
  if (need <= a.length) return a;
  let cap = Math.max(16, a.length);
  while (cap < need) cap *= 2;
  const b = new Uint32Array(cap);
  b.set(a);
  return b;
}

/** {@link growU32} for bytes. */
export function growU8(a: Uint8Array<ArrayBufferLike>, need: number): Uint8Array<ArrayBufferLike> {
  if (need <= a.length) return a;
  let cap = Math.max(16, a.length);
  while (cap < need) cap *= 2;
  const b = new Uint8Array(cap);
  b.set(a);
  return b;
}
