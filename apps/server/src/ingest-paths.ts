import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { expandSources } from "@hierdoc/tool";
import { HttpError } from "./http-errors.js";

/** The configured ingest roots, resolved once: as written (absolute) and with symlinks resolved. */
export interface IngestRoots {
  lexical: string[];
  real: string[];
}

/**
 * Resolves the configured ingest roots. A root that does not exist is dropped (and reported through `onMissing`).
 */
export async function resolveIngestRoots(roots: string[], onMissing?: (root: string) => void): Promise<IngestRoots> {
  const lexical: string[] = [];
  const real: string[] = [];
  for (const root of roots) {
    const abs = resolve(root);
    try {
      real.push(await realpath(abs));
      lexical.push(abs);
    } catch {
      onMissing?.(root);
    }
  }
  return { lexical, real };
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

const GLOB_CHARS = /[*?[\]{}]/;

/**
 * Checks the paths of an ingest request and returns them in the form to hand to the tool (relative to the
 * working directory when inside it, as the CLI writes them; else absolute).
 *
 * Refused with 403 E_FORBIDDEN: any `..` segment, a path (absolute or relative to the first root) outside
 * every root, a path whose real location (symlinks resolved) is outside every root, and a folder holding a
 * file or folder link that leads outside. 404 E_INPUT_NOT_FOUND when a path does not exist; 400 for globs
 * and NUL bytes. The check runs before the ingest; a symlink swapped in between is the remaining window.
 */
export async function checkIngestPaths(paths: string[], roots: IngestRoots, cwd = process.cwd()): Promise<string[]> {
  if (roots.lexical.length === 0) throw new HttpError(403, "E_FORBIDDEN", "ingest is disabled: the server has no ingest roots configured");
  const out: string[] = [];
  for (const given of paths) {
    if (given.includes("\0")) throw new HttpError(400, "E_INVALID_ARGUMENT", "a path contains a NUL byte");
    if (GLOB_CHARS.test(given)) throw new HttpError(400, "E_INVALID_ARGUMENT", `"${given}": globs are not accepted; name files or folders`);
    if (given.split(/[\\/]/).includes("..")) throw new HttpError(403, "E_FORBIDDEN", `"${given}": ".." segments are not allowed`);
    const abs = isAbsolute(given) ? resolve(given) : resolve(roots.lexical[0], given);
    if (!roots.lexical.some((r) => isInside(abs, r)) && !roots.real.some((r) => isInside(abs, r))) {
      throw new HttpError(403, "E_FORBIDDEN", `"${given}" is outside the ingest roots`);
    }
    let real: string;
    try {
      real = await realpath(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new HttpError(404, "E_INPUT_NOT_FOUND", `"${given}": no such file or folder`);
      throw new HttpError(403, "E_FORBIDDEN", `"${given}": cannot be resolved (${code ?? "error"})`);
    }
    if (!roots.real.some((r) => isInside(real, r))) throw new HttpError(403, "E_FORBIDDEN", `"${given}" leads outside the ingest roots (symbolic link)`);
    if ((await stat(real)).isDirectory()) {
      const { files } = await expandSources([abs]);
      for (const file of files) {
        const fileReal = await realpath(file).catch(() => null);
        if (fileReal && !roots.real.some((r) => isInside(fileReal, r))) {
          throw new HttpError(403, "E_FORBIDDEN", `"${given}" holds a symbolic link that leads outside the ingest roots (${relative(abs, file)})`);
        }
      }
    }
    const rel = relative(cwd, abs);
    out.push(rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : abs);
  }
  return out;
}
