import type { ToolConfig } from "@hierdoc/core";

/** Default `ingest.checkpoint`: flush after this many changed files or this many seconds, whichever comes first. */
export const DEFAULT_CHECKPOINT = Object.freeze({ files: 20, seconds: 60 });

/**
 * Decides when a long ingest flushes the store between files (`ingest.checkpoint`), so a kill loses at
 * most the files since the last checkpoint. Call {@link fileDone} after each file written to the store;
 * it runs `flush` when `files` files or `seconds` seconds have passed since the last checkpoint.
 */
export class IngestCheckpoint {
  private files = 0;
  private since = performance.now();
  private readonly every: { files: number; seconds: number } | undefined;

  constructor(
    setting: ToolConfig["ingest"]["checkpoint"],
    private readonly flush: () => Promise<void>,
  ) {
    this.every = setting === false ? undefined : { ...DEFAULT_CHECKPOINT, ...setting };
  }

  /** A file was written to the store: flushes when a checkpoint is due; returns whether it flushed. */
  async fileDone(): Promise<boolean> {
    if (this.every === undefined) return false;
    this.files++;
    if (this.files < this.every.files && performance.now() - this.since < this.every.seconds * 1000) return false;
    await this.flush();
    this.files = 0;
    this.since = performance.now();
    return true;
  }
}
