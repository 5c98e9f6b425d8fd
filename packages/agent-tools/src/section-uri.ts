import { basename } from "node:path";
import { HierdocError } from "@hierdoc/core";

/** URI scheme of hierdoc section resources. */
export const SECTION_URI_SCHEME = "hierdoc:";

/** The resource URI of a section: `hierdoc://<file name>/<section id>`, both parts percent-encoded. */
export function sectionUri(sourcePath: string, sectionId: string): string {
  return `hierdoc://${encodeURIComponent(basename(sourcePath))}/${encodeURIComponent(sectionId)}`;
}

/**
 * The file name and section id a section URI names.
 * @throws HierdocError E_INVALID_ARGUMENT when `uri` is not `hierdoc://<source>/<section id>`.
 */
export function parseSectionUri(uri: string): { source: string; sectionId: string } {
  const m = /^hierdoc:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!m) throw new HierdocError("E_INVALID_ARGUMENT", `not a hierdoc section URI (hierdoc://<source>/<section id>): ${uri}`);
  try {
    return { source: decodeURIComponent(m[1]), sectionId: decodeURIComponent(m[2]) };
  } catch (err) {
    throw new HierdocError("E_INVALID_ARGUMENT", `bad percent-encoding in section URI: ${uri}`, { cause: err });
  }
}
