import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import picomatch from "picomatch";
import { HierdocError } from "@hierdoc/core";

/** File extensions picked up when a folder or glob is ingested. Files named explicitly are always tried. */
export const DOCUMENT_EXTENSIONS = [".md", ".markdown", ".txt", ".text", ".html", ".htm", ".xml", ".pdf", ".docx"];

/** The files a source expands to, and the sources that could not be read. */
export interface ExpandedSources {
  files: string[];
  /** Folders and globs given, so files that disappeared from them can be removed from the index. */
  roots: string[];
  errors: HierdocError[];
}

const GLOB_CHARS = /[*?[\]{}]/;

/**
 * Expands files, folders (recursively, skipping dot-folders and node_modules, safe against symlink
 * loops) and globs into a sorted, de-duplicated list of file paths, as the user wrote them.
 * Missing paths become per-path errors; the rest still expand.
 */
export async function expandSources(sources: string[]): Promise<ExpandedSources> {
  const files = new Set<string>();
  const roots: string[] = [];
  const errors: HierdocError[] = [];
  for (const source of sources) {
    if (GLOB_CHARS.test(source)) {
      const base = globBase(source);
      const isMatch = picomatch(source.split(sep).join("/"), { dot: false });
      roots.push(source);
      const found = await walk(base || ".", errors);
      let any = false;
      for (const f of found) {
        if (isMatch(f.split(sep).join("/"))) {
          files.add(f);
          any = true;
        }
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
      for (const f of await walk(source, errors)) if (hasDocumentExtension(f)) files.add(f);
    } else if (info.isFile()) {
      files.add(source);
    } else {
      errors.push(new HierdocError("E_UNSUPPORTED_TYPE", `${source}: not a regular file`, { details: { file: source } }));
    }
  }
  return { files: [...files].sort(), roots, errors };
}

/** True when a path is under one of the folder or glob roots a source list names. */
export function isUnderRoots(path: string, roots: string[]): boolean {
  return roots.some((root) => {
    if (GLOB_CHARS.test(root)) return picomatch(root.split(sep).join("/"))(path.split(sep).join("/"));
    const rel = relative(root, path);
    return rel !== "" && !rel.startsWith("..") && !rel.startsWith(sep) && hasDocumentExtension(path);
  });
}

function hasDocumentExtension(path: string): boolean {
  const lower = path.toLowerCase();
  return DOCUMENT_EXTENSIONS.some((ext) => lower.endsWith(ext));
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
