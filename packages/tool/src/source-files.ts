import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import picomatch from "picomatch";
import { HierdocError } from "@hierdoc/core";
import { isTextFile } from "./text-sniff.js";

/** Why a folder or glob ingest left a file out. */
export type SkipReason =
  /** No converter reads the extension and no `include` glob names the file. */
  | "unsupported-extension"
  /** An `exclude` glob names the file. */
  | "excluded"
  /** An `include` glob (or a glob source) names the file, but it is not text (NUL bytes or invalid UTF-8). */
  | "not-text"
  /** The file has no bytes (an empty `__init__.py`, a placeholder): nothing to index. A file named explicitly still fails. */
  | "empty";

/** A file a folder or glob expanded to that is not ingested, and why. */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  /** For `unsupported-extension`: whether the file looks like text (so an `include` glob would take it). */
  text?: boolean;
}

/** Which files of a folder or glob an ingest takes. */
export interface SourceSelection {
  /** Globs of extra files to take when they are text (matched against the path relative to the folder; a pattern without `/` matches the file name). */
  include?: readonly string[];
  /** Globs of files to leave out; wins over everything else. */
  exclude?: readonly string[];
  /**
   * Extensions (lower case, with the dot) taken without sniffing; an ingest passes `SUPPORTED_EXTENSIONS` of
   * `@hierdoc/convert`. Default: every file is taken.
   */
  extensions?: readonly string[];
}

/** The files a source expands to, the files left out, and the sources that could not be read. */
export interface ExpandedSources {
  files: string[];
  /** Folders and globs given, so files that disappeared from them can be removed from the index. */
  roots: string[];
  /** Files under the folders and globs that are not ingested, with the reason, in path order. */
  skipped: SkippedFile[];
  errors: HierdocError[];
}

const GLOB_CHARS = /[*?[\]{}]/;
const posix = (p: string) => p.split(sep).join("/");

/**
 * Expands files, folders (recursively, skipping dot-folders and node_modules, safe against symlink
 * loops) and globs into a sorted, de-duplicated list of file paths, as the user wrote them.
 * A folder yields the files with a supported extension, plus text files an `include` glob names; a glob
 * source yields what it matches (files of other extensions when they are text). `exclude` globs apply to
 * both. Empty files under a folder or glob are left out. Files named explicitly are always taken. Every other file found is listed in `skipped` with its
 * reason. Missing paths become per-path errors; the rest still expand.
 */
export async function expandSources(sources: string[], selection: SourceSelection = {}): Promise<ExpandedSources> {
  const extensions = selection.extensions ? new Set(selection.extensions.map((e) => e.toLowerCase())) : undefined;
  const include = matcher(selection.include);
  const exclude = matcher(selection.exclude);
  const files = new Set<string>();
  const skipped = new Map<string, Omit<SkippedFile, "path">>();
  const roots: string[] = [];
  const errors: HierdocError[] = [];
  /** Decides one file found under a folder (`rel` to it) or by a glob. */
  const consider = async (path: string, rel: string, named: boolean): Promise<void> => {
    if (files.has(path)) return;
    if (exclude?.(rel)) return void skipped.set(path, { reason: "excluded" });
    if (await isEmptyFile(path)) return void skipped.set(path, { reason: "empty" });
    if (!extensions || extensions.has(extensionWithDot(path))) return void files.add(path);
    const text = await isTextFile(path);
    if (!named && !include?.(rel)) return void skipped.set(path, { reason: "unsupported-extension", text });
    if (text) files.add(path);
    else skipped.set(path, { reason: "not-text" });
  };
  for (const source of sources) {
    if (GLOB_CHARS.test(source)) {
      const isMatch = picomatch(posix(source), { dot: false });
      roots.push(source);
      let any = false;
      for (const f of await walk(globBase(source) || ".", errors)) {
        if (!isMatch(posix(f))) continue;
        any = true;
        await consider(f, posix(f), true);
      }
      if (!any) errors.push(new HierdocError("E_INPUT_NOT_FOUND", `${source}: no file matches this pattern`, { details: { file: source } }));
      continue;
    }
    let info;
    try {
      info = await stat(source);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "no such file or folder" : code === "ELOOP" ? "symbolic link loop" : (err as Error).message;
      errors.push(new HierdocError("E_INPUT_NOT_FOUND", `${source}: ${why}`, { cause: err, details: { file: source } }));
      continue;
    }
    if (info.isDirectory()) {
      roots.push(source);
      for (const f of await walk(source, errors)) await consider(f, posix(relative(source, f)), false);
    } else if (info.isFile()) {
      files.add(source);
    } else {
      errors.push(new HierdocError("E_UNSUPPORTED_TYPE", `${source}: not a regular file`, { details: { file: source } }));
    }
  }
  for (const f of files) skipped.delete(f);
  return {
    files: [...files].sort(),
    roots,
    skipped: [...skipped].map(([path, why]) => ({ path, ...why })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    errors,
  };
}

/** True when a path is under one of the folder or glob roots a source list names. */
export function isUnderRoots(path: string, roots: string[]): boolean {
  return roots.some((root) => {
    if (GLOB_CHARS.test(root)) return picomatch(posix(root))(posix(path));
    const rel = relative(root, path);
    return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep);
  });
}

/** Lower-case extension with its dot (`.md`), or "" when the file name has none. */
export function extensionWithDot(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot).toLowerCase();
}

/** A glob without `/` matches the file name at any depth (`*.py`); one with `/` matches the relative path. */
function matcher(globs: readonly string[] | undefined): ((rel: string) => boolean) | undefined {
  if (!globs || globs.length === 0) return undefined;
  const names = globs.filter((g) => !posix(g).includes("/"));
  const paths = globs.map(posix).filter((g) => g.includes("/"));
  const byName = names.length > 0 ? picomatch(names, { dot: true }) : () => false;
  const byPath = paths.length > 0 ? picomatch(paths, { dot: true }) : () => false;
  return (rel) => byPath(rel) || byName(rel.slice(rel.lastIndexOf("/") + 1));
}

function globBase(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const base: string[] = [];
  for (const part of parts) {
    if (GLOB_CHARS.test(part)) break;
    base.push(part);
  }
  return base.join("/");
}

async function walk(root: string, errors: HierdocError[]): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = async (dir: string): Promise<void> => {
    let real: string;
    try {
      real = await realpath(dir);
    } catch (err) {
      errors.push(new HierdocError("E_INPUT_NOT_FOUND", `${dir}: ${(err as Error).message}`, { cause: err, details: { file: dir } }));
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      errors.push(new HierdocError("E_INPUT_NOT_FOUND", `${dir}: ${(err as Error).message}`, { cause: err, details: { file: dir } }));
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const p = dir === "." ? entry.name : join(dir, entry.name);
      if (entry.isDirectory()) await visit(p);
      else if (entry.isFile()) out.push(p);
      else if (entry.isSymbolicLink()) {
        try {
          const s = await stat(p);
          if (s.isDirectory()) await visit(p);
          else if (s.isFile()) out.push(p);
        } catch {
          const l = await lstat(p).catch(() => null);
          if (l) errors.push(new HierdocError("E_INPUT_NOT_FOUND", `${p}: broken or looping symbolic link`, { details: { file: p } }));
        }
      }
    }
  };
  await visit(root);
  return out;
}

/** Whether a file has no bytes (a file that cannot be stat'ed is left for the ingest to report). */
async function isEmptyFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size === 0;
  } catch {
    return false;
  }
}
