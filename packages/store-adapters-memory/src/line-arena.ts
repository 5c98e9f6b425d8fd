/**
 * Packs many short UTF-8 strings into a few large buffers and hands out views, so thousands of record
 * lines cost their bytes rather than one pooled allocation (with its slack) each.
 */
export class LineArena {
  private block: Buffer = Buffer.alloc(0);
  private used = 0;

  /** @param blockBytes size of each backing buffer; a longer string gets a buffer of its own. */
  constructor(private readonly blockBytes = 8 * 1024 * 1024) {}

  /** A view holding a copy of `bytes`. */
  addBytes(bytes: Uint8Array): Buffer {
    if (bytes.length > this.blockBytes / 4) return Buffer.from(bytes);
    const start = this.reserve(bytes.length);
    this.block.set(bytes, start);
    return this.block.subarray(start, start + bytes.length);
  }

  /** A view holding `text` as UTF-8. */
  add(text: string): Buffer {
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > this.blockBytes / 4) return Buffer.from(text, "utf8");
    const start = this.reserve(bytes);
    this.block.write(text, start, "utf8");
    return this.block.subarray(start, start + bytes);
  }

  /** Where the next `bytes` bytes go (a new block when the current one is full). */
  private reserve(bytes: number): number {
    if (this.used + bytes > this.block.length) {
      this.block = Buffer.allocUnsafeSlow(this.blockBytes);
      this.used = 0;
    }
    const start = this.used;
    this.used += bytes;
    return start;
  }
}
