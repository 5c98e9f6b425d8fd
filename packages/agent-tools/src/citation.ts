import { basename } from "node:path";
import { sectionUri } from "./section-uri.js";

/** The provenance fields a citation is built from (a search result, a chunk record or a section entry). */
export interface Citable {
  sourcePath: string;
  sectionId: string;
  sectionTitle: string;
  parentChain: string[];
}

/** Where a passage sits, in a form an agent can quote and a program can follow. */
export interface Citation {
  /** The document's file name ("gdpr_2016_679.md"). */
  source: string;
  /** The full source path as indexed. */
  source_path: string;
  section_id: string;
  section_title: string;
  /** Enclosing headings, outermost first. */
  parent_chain: string[];
  /** MCP resource URI of the section: `hierdoc://<source>/<section id>`. */
  uri: string;
  /** One quotable line: "<parent chain> › <section title> (<source>)". */
  text: string;
}

/** Builds the {@link Citation} of a passage from its provenance. */
export function citationOf(c: Citable): Citation {
  const source = basename(c.sourcePath);
  const title = c.sectionTitle || c.sectionId;
  return {
    source,
    source_path: c.sourcePath,
    section_id: c.sectionId,
    section_title: c.sectionTitle,
    parent_chain: c.parentChain,
    uri: sectionUri(c.sourcePath, c.sectionId),
    text: `${[...c.parentChain, title].join(" › ")} (${source})`,
  };
}
