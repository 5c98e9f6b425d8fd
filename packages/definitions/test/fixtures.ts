import type { Chunk, ConvertedDocument, Section } from "@hierdoc/core";

/** A hand-made parse of a small document: one section per heading given, one chunk per section. */
export function fixture(
  text: string,
  headings: Array<{ id: string; title: string; level: number; aliases?: string[] }>,
  options: { sourcePath?: string; format?: "markdown" | "text" } = {},
): { doc: ConvertedDocument; sections: Section[]; chunks: Chunk[] } {
  const sourcePath = options.sourcePath ?? "doc.md";
  const doc: ConvertedDocument = { sourcePath, fileType: "markdown", format: options.format ?? "markdown", text };
  const starts = headings.map((h) => {
    const at = text.indexOf(h.title);
    if (at < 0) throw new Error(`heading not in fixture: ${h.title}`);
    return text.lastIndexOf("\n", at) + 1;
  });
  const sections: Section[] = headings.map((h, i) => {
    let end = text.length;
    for (let k = i + 1; k < headings.length; k++) {
      if (headings[k].level <= h.level) {
        end = starts[k];
        break;
      }
    }
    const parents = headings.slice(0, i).filter((p, k) => p.level < h.level && starts[k] < starts[i] && end <= text.length);
    return {
      sectionId: h.id,
      aliases: h.aliases ?? [],
      title: h.title,
      level: h.level,
      parentChain: parents.map((p) => p.title),
      parentIds: parents.map((p) => p.id),
      start: starts[i],
      end,
    };
  });
  const chunks: Chunk[] = sections.map((s, i) => {
    const end = starts[i + 1] ?? text.length;
    return {
      id: `${sourcePath}_chunk_${i}`,
      sourcePath,
      chunkIndex: i,
      content: text.slice(s.start, end),
      start: s.start,
      end,
      sectionId: s.sectionId,
      sectionTitle: s.title,
      parentChain: s.parentChain,
      chunkType: "content",
      tokens: 0,
      unitIds: [],
    };
  });
  return { doc, sections, chunks };
}
