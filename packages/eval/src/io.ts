import { readFile } from "node:fs/promises";
import { HierdocError } from "@hierdoc/core";
import { parseQrels, qrelsFromRecords, type Qrels } from "./qrels.js";
import { parseRunJsonl, type RunResult } from "./run.js";

async function read(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code === "ENOENT" ? "E_INPUT_NOT_FOUND" : "E_INTERNAL";
    throw new HierdocError(code, `cannot read ${what} ${path}`, { cause, details: { file: path } });
  }
}

function parseJsonLines(text: string, path: string): unknown[] {
  const out: unknown[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    try {
      out.push(JSON.parse(line));
    } catch (cause) {
      throw new HierdocError("E_PARSE", `${path}:${i + 1}: invalid JSON`, { cause, details: { file: path, line: i + 1 } });
    }
  });
  return out;
}

/**
 * Parses qrels text: a `hierdoc-qrels` JSON object, or JSON lines (header/document/passage/query records,
 * see {@link qrelsFromRecords}). `name` is used in error messages.
 * Throws `E_PARSE` for invalid JSON or an invalid qrels.
 */
export function parseQrelsText(text: string, name = "qrels"): Qrels {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    whole = undefined;
  }
  if (typeof whole === "object" && whole !== null && Array.isArray((whole as { queries?: unknown }).queries)) {
    return parseQrels(whole);
  }
  try {
    return qrelsFromRecords(parseJsonLines(text, name));
  } catch (err) {
    if (err instanceof HierdocError && err.code === "E_PARSE" && !err.message.startsWith(name)) {
      throw new HierdocError("E_PARSE", `${name}: ${err.message}`, { cause: err, details: { ...err.details, file: name } });
    }
    throw err;
  }
}

/**
 * Reads a qrels file (JSON or JSONL). Throws `E_INPUT_NOT_FOUND` when absent, `E_PARSE` when invalid.
 */
export async function loadQrels(path: string): Promise<Qrels> {
  return parseQrelsText(await read(path, "qrels"), path);
}

/**
 * Reads batch-search output (`hierdoc search --queries … --json`) into a run map.
 * Throws `E_INPUT_NOT_FOUND` when absent, `E_PARSE` for a bad line.
 */
export async function readRunJsonl(path: string): Promise<Map<string, readonly RunResult[] | null>> {
  return parseRunJsonl(await read(path, "run"));
}
