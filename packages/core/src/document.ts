/** The kinds of chunk the chunker distinguishes. */
export type ChunkType = "definition" | "requirement" | "content" | "header";

/** A source file turned into text, with the converted text every offset refers to. */
export interface ConvertedDocument {
  /** Path as given by the user (relative paths stay relative), used in chunk ids and results. */
  sourcePath: string;
  /** Detected type: `markdown`, `text`, `pdf`, `docx`, `html`, `uslm-xml`, `rfc-xml`, … */
  fileType: string;
  /** Whether {@link text} is markdown (parsed with remark) or plain text (numbering inference). */
  format: "markdown" | "text";
  /** The converted text; every `[start, end)` offset of sections and chunks points into it. */
  text: string;
  /** Document title when known (first heading, metadata, …). */
  title?: string;
  /** Optional map from converted-text offsets back to the original file (page numbers, XML ids). */
  sourceMap?: SourceMapEntry[];
}

/** One span of converted text and where it came from in the original file. */
export interface SourceMapEntry {
  start: number;
  end: number;
  /** 1-based page number (PDF) when known. */
  page?: number;
  /** Original element id or anchor (XML, HTML) when known. */
  anchor?: string;
}

/** A structural unit of a document: a heading and everything under it up to the next sibling. */
export interface Section {
  /** Canonical section id ("Article 17", "§ 478.11", "9.3.1", "2.1.1.(1)"); the title when unnumbered. */
  sectionId: string;
  /** Other spellings a user types for the same section ("Art. 17", "478.11", "section 478.11"). */
  aliases: string[];
  /** Heading text as written, without markdown markers. */
  title: string;
  /** Depth in the hierarchy, 1 = top. */
  level: number;
  /** Headings of the ancestors, outermost first, without this section. */
  parentChain: string[];
  /** Section ids of the ancestors, outermost first. */
  parentIds: string[];
  /** `[start, end)` in the converted text, heading included. */
  start: number;
  end: number;
}

/** A retrievable piece of a document, at most `max_chunk_tokens` tokens, inside one section. */
export interface Chunk {
  /** `{source_path}_chunk_{index}`. */
  id: string;
  sourcePath: string;
  chunkIndex: number;
  /** Original text; equals `text.slice(start, end)` of the converted document. */
  content: string;
  start: number;
  end: number;
  sectionId: string;
  sectionTitle: string;
  /** Headings of the section's ancestors, outermost first (not including the section itself). */
  parentChain: string[];
  chunkType: ChunkType;
  /** Token count of {@link content}. */
  tokens: number;
  /**
   * Ids of the finer structural units (sub-sections, numbered paragraphs such as "203(a)(1)" or
   * "2.1.1.(1)") that start inside this chunk; the exact index maps them to this chunk.
   */
  unitIds: string[];
}

/** A defined term and where it is defined. */
export interface DefinitionEntry {
  id: string;
  term: string;
  termNormalized: string;
  definitionText: string;
  sourcePath: string;
  sourceSection: string;
  chunkId: string;
}

/** A reference from one section to another, resolved when the target is in the corpus. */
export interface CrossReference {
  /** The citing text as written ("Article 6(1)", "Section 11.2 of [HTTP/1.1]"). */
  text: string;
  fromSectionId: string;
  /** Target section id when resolved (or the cited id when external), else null. */
  targetSectionId: string | null;
  /** Target chunk id when resolved inside the corpus. */
  targetChunkId?: string | null;
  /** True when the reference points outside the corpus. */
  external: boolean;
  /** The cited document for external references ("HTTP/1.1", "title 5", "RFC 9110"). */
  citedDocument?: string;
}

/**
 * What the store keeps per chunk: the chunk, its generated context and the text that was indexed, plus
 * the file hash used for incremental ingestion and the definitions and references found in it.
 */
export interface ChunkRecord extends Chunk {
  /** Generated context (LLM or structural); empty when none. */
  context: string;
  /** The text the dense and keyword legs indexed: `{context}\n\n{content}` (or content alone). */
  indexedText: string;
  /** Hash of the source file's bytes when it was ingested. */
  fileHash: string;
  /** How many chunks the file produced; a file with fewer stored records is incomplete and re-ingested. */
  fileChunkCount: number;
  fileType: string;
  /** Aliases of the chunk's section id, for the exact index. */
  sectionAliases: string[];
  /** Definitions whose defining text lies in this chunk. */
  definitions: DefinitionEntry[];
  crossReferences: CrossReference[];
}
