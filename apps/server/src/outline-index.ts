import type { ChunkRecord, ChunkType } from "@hierdoc/core";

/** One section of a document's outline, in document order. */
export interface OutlineSection {
  sectionId: string;
  sectionTitle: string;
  /** Titles of the enclosing headings, outermost first (the same list as a result's `parent_chain`). */
  parentChain: string[];
  /** Type of the section's first chunk. */
  chunkType: ChunkType;
  /** Chunks the section was split into. */
  chunks: number;
  /** Offset of the section's first chunk in the source text. */
  start: number;
}

/** The outline of one indexed document. */
export interface DocumentOutline {
  sourcePath: string;
  /** The outermost heading (the first section's chain root or its title), else the file name. */
  title: string;
  chunks: number;
  sections: OutlineSection[];
}

/**
 * Document outlines (sections in order with their heading chains) built from one scan of the store and
 * kept until {@link OutlineIndex.invalidate} or until the index's chunk count changes. The scan reads
 * every record once (O(chunks)); the outline keeps only ids, titles and offsets.
 */
export class OutlineIndex {
  private built: { key: number; docs: Map<string, DocumentOutline> } | undefined;
  private building: Promise<Map<string, DocumentOutline>> | undefined;

  constructor(
    private readonly scan: () => AsyncIterable<ChunkRecord>,
    private readonly chunkCount: () => number,
  ) {}

  /** Drops the cached outlines (after an ingest). */
  invalidate(): void {
    this.built = undefined;
    this.building = undefined;
  }

  /** Every document, sorted by source path. */
  async documents(): Promise<DocumentOutline[]> {
    const docs = await this.load();
    return [...docs.values()].sort((a, b) => a.sourcePath.localeCompare(b.sourcePath));
  }

  /** The outline of one document, or undefined when the index does not hold it. */
  async outline(sourcePath: string): Promise<DocumentOutline | undefined> {
    return (await this.load()).get(sourcePath);
  }

  private async load(): Promise<Map<string, DocumentOutline>> {
    const key = this.chunkCount();
    if (this.built && this.built.key === key) return this.built.docs;
    if (!this.building) {
      const run = buildOutlines(this.scan()).then(
        (docs) => {
          if (this.building === run) {
            this.built = { key, docs };
            this.building = undefined;
          }
          return docs;
        },
        (err: unknown) => {
          if (this.building === run) this.building = undefined;
          throw err;
        },
      );
      this.building = run;
    }
    return this.building;
  }
}

/** Groups records by document and section, in document order. */
export async function buildOutlines(records: AsyncIterable<ChunkRecord>): Promise<Map<string, DocumentOutline>> {
  const bySource = new Map<string, Map<string, OutlineSection>>();
  const chunkCounts = new Map<string, number>();
  for await (const r of records) {
    let sections = bySource.get(r.sourcePath);
    if (!sections) bySource.set(r.sourcePath, (sections = new Map()));
    chunkCounts.set(r.sourcePath, (chunkCounts.get(r.sourcePath) ?? 0) + 1);
    // A section id can repeat in one document under different parents ("Section 1" of two chapters).
    const key = `${r.parentChain.join("\u0000")}\u0001${r.sectionId}`;
    const seen = sections.get(key);
    if (seen) {
      seen.chunks++;
      if (r.start < seen.start) Object.assign(seen, { start: r.start, chunkType: r.chunkType });
      continue;
    }
    sections.set(key, { sectionId: r.sectionId, sectionTitle: r.sectionTitle, parentChain: [...r.parentChain], chunkType: r.chunkType, chunks: 1, start: r.start });
  }
  const out = new Map<string, DocumentOutline>();
  for (const [sourcePath, sections] of bySource) {
    const ordered = [...sections.values()].sort((a, b) => a.start - b.start);
    const first = ordered[0];
    const title = first?.parentChain[0] ?? first?.sectionTitle ?? sourcePath.split(/[\\/]/).pop() ?? sourcePath;
    out.set(sourcePath, { sourcePath, title, chunks: chunkCounts.get(sourcePath) ?? 0, sections: ordered });
  }
  return out;
}
