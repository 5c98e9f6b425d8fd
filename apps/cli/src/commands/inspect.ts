import { readFile } from "node:fs/promises";
import { HierdocError } from "@hierdoc/core";
import { parseDocument } from "@hierdoc/chunker";
import { convertFile } from "@hierdoc/convert";
import { extractCrossReferences, extractDefinitions } from "@hierdoc/definitions";
import { breadcrumb, snippet } from "../format.js";
import { out } from "../io.js";

/** Options of `hierdoc inspect`. */
export interface InspectCommandOptions {
  json?: boolean;
  maxChunkTokens?: string;
}

/** `hierdoc inspect FILE`: how a document was understood (sections, chunks, definitions, references); indexes nothing. */
export async function inspectCommand(file: string, opts: InspectCommandOptions): Promise<number> {
  const maxChunkTokens = opts.maxChunkTokens ? Number(opts.maxChunkTokens) : 800;
  if (!Number.isInteger(maxChunkTokens) || maxChunkTokens < 16) {
    throw new HierdocError("E_INVALID_ARGUMENT", `--max-chunk-tokens must be an integer ≥ 16 (got "${opts.maxChunkTokens}")`);
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new HierdocError("E_INPUT_NOT_FOUND", `${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`, { details: { file } });
  }
  const doc = await convertFile(file, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const parsed = parseDocument(doc, { maxChunkTokens });
  const definitions = extractDefinitions(doc, parsed.sections, parsed.chunks);
  const references = extractCrossReferences(doc, parsed.sections, parsed.chunks);
  if (opts.json) {
    await out(
      JSON.stringify({
        source_path: file,
        file_type: doc.fileType,
        format: doc.format,
        title: doc.title ?? null,
        sections: parsed.sections.map((s) => ({ section_id: s.sectionId, title: s.title, level: s.level, parent_chain: s.parentChain, aliases: s.aliases, start: s.start, end: s.end })),
        chunks: parsed.chunks.map((c) => ({ id: c.id, section_id: c.sectionId, parent_chain: c.parentChain, chunk_type: c.chunkType, start: c.start, end: c.end, tokens: c.tokens, unit_ids: c.unitIds })),
        definitions: definitions.map((d) => ({ term: d.term, definition_text: d.definitionText, source_section: d.sourceSection })),
        cross_references: references.map((x) => ({ text: x.text, from_section_id: x.fromSectionId, target_section_id: x.targetSectionId, external: x.external })),
      }) + "\n",
    );
    return 0;
  }
  const lines: string[] = [`${file} (${doc.fileType}, ${doc.format}): ${parsed.sections.length} sections, ${parsed.chunks.length} chunks, ${definitions.length} definitions, ${references.length} cross-references`, "", "sections:"];
  for (const s of parsed.sections.slice(0, 400)) lines.push(`${"  ".repeat(Math.max(0, s.level - 1))}- [${s.sectionId}] ${s.title}`);
  if (parsed.sections.length > 400) lines.push(`  … ${parsed.sections.length - 400} more (use --json)`);
  lines.push("", "chunks:");
  for (const c of parsed.chunks.slice(0, 200)) {
    lines.push(`  ${c.id} [${c.sectionId}] ${c.chunkType} ${c.tokens} tok  ${breadcrumb(c.parentChain, c.sectionTitle, c.sectionId)}`);
    lines.push(`      ${snippet(c.content, 120)}`);
  }
  if (parsed.chunks.length > 200) lines.push(`  … ${parsed.chunks.length - 200} more (use --json)`);
  if (definitions.length > 0) {
    lines.push("", "definitions:");
    for (const d of definitions) lines.push(`  ${d.term} (${d.sourceSection}): ${snippet(d.definitionText, 100)}`);
  }
  await out(lines.join("\n") + "\n");
  return 0;
}
