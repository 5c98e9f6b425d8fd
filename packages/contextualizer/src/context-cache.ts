import { createHash } from "node:crypto";
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { HierdocError } from "@hierdoc/core";

/** Where generated contexts are kept between runs. Only successful contexts are stored. */
export interface ContextCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, context: string): Promise<void>;
  /** Resolves when every `set` so far is durable. */
  flush(): Promise<void>;
}

/** The parts of a cache key. */
export interface ContextCacheKeyParts {
  /** Provider and model, e.g. `anthropic:claude-3-haiku-20240307`. */
  model: string;
  /** {@link PROMPT_TEMPLATE_VERSION} (or another template's version). */
  templateVersion: string;
  /** {@link hashText} of the whole converted document. */
  documentHash: string;
  chunkText: string;
}

/** SHA-256 (hex) of a text, used for document hashes. */
export function hashText(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The cache key of one context: SHA-256 over model, template version, document hash and chunk text. */
export function contextCacheKey(parts: ContextCacheKeyParts): string {
  return hashText(JSON.stringify([parts.model, parts.templateVersion, parts.documentHash, parts.chunkText]));
}

/** A process-local cache (the default when no cache folder is given). */
export class MemoryContextCache implements ContextCache {
  private readonly map = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async set(key: string, context: string): Promise<void> {
    this.map.set(key, context);
  }
  async flush(): Promise<void> {}
  /** Number of stored contexts. */
  get size(): number {
    return this.map.size;
  }
}

/**
 * A persistent cache: one JSON line `{"k": key, "c": context}` appended per new context to
 * `<dir>/contexts.jsonl` (the app passes e.g. `<index>/contexts`). Appends are serialised; a torn last line
 * (crash mid-write) is skipped on load, so a crash loses at most the context being written.
 * Use one instance per folder and process (the index lock guarantees that for the tool).
 */
export class FileContextCache implements ContextCache {
  readonly file: string;
  private readonly dir: string;
  private map: Map<string, string> | undefined;
  private loading: Promise<Map<string, string>> | undefined;
  private writes: Promise<void> = Promise.resolve();
  private writeError: unknown;

  constructor(dir: string) {
    this.dir = dir;
    this.file = join(dir, "contexts.jsonl");
  }

  private async load(): Promise<Map<string, string>> {
    if (this.map) return this.map;
    this.loading ??= (async () => {
      const map = new Map<string, string>();
      let text = "";
      try {
        text = await readFile(this.file, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
          throw new HierdocError("E_INTERNAL", `cannot read context cache ${this.file}`, { cause: err, details: { file: this.file } });
        }
      }
      for (const line of text.split("\n")) {
        if (!line) continue;
        try {
          const row = JSON.parse(line) as { k?: unknown; c?: unknown };
          if (typeof row.k === "string" && typeof row.c === "string") map.set(row.k, row.c);
        } catch {
          // torn line from an interrupted write: skip it
        }
      }
      this.map = map;
      return map;
    })();
    return this.loading;
  }

  /** @throws HierdocError E_INTERNAL when the file exists but cannot be read */
  async get(key: string): Promise<string | undefined> {
    return (await this.load()).get(key);
  }

  /** Stores in memory at once and appends to the file in the background; {@link flush} awaits the file. */
  async set(key: string, context: string): Promise<void> {
    const map = await this.load();
    if (map.get(key) === context) return;
    map.set(key, context);
    const line = `${JSON.stringify({ k: key, c: context })}\n`;
    this.writes = this.writes.then(async () => {
      try {
        await mkdir(this.dir, { recursive: true });
        await appendFile(this.file, line, "utf8");
      } catch (err) {
        this.writeError ??= err;
      }
    });
  }

  /** @throws HierdocError E_INTERNAL when an append failed (disk full, permissions) */
  async flush(): Promise<void> {
    await this.writes;
    if (this.writeError) {
      const cause = this.writeError;
      this.writeError = undefined;
      throw new HierdocError("E_INTERNAL", `cannot write context cache ${this.file}`, { cause, details: { file: this.file } });
    }
  }

  /** Number of stored contexts (after the first get/set). */
  get size(): number {
    return this.map?.size ?? 0;
  }
}
