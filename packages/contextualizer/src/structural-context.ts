import type { ContextGenerator, ContextRequest, ContextResult, WorkerRecipe } from "@hierdoc/core";

/** Parts a structural context can hold, in this order. */
export type StructuralPart = "document" | "chain" | "section" | "terms";

/** Options of {@link StructuralContextGenerator}. */
export interface StructuralContextOptions {
  /**
   * What the context holds. Default `["section"]`: the section's own title. Measured on ObliQA dev
   * (docs/benchmarks.md): the title alone helps the keyword leg; the whole parent chain and the term
   * list repeat words across sibling chunks and lower both legs.
   */
  parts?: StructuralPart[];
  /** Defined terms a chunk uses (from the corpus' definitions), listed in the context. */
  termsFor?: (request: ContextRequest) => string[];
  /** At most this many terms are listed. Default 8. */
  maxTerms?: number;
}

/**
 * Offline context for a chunk, used when no LLM is configured: by default the section's own title
 * (`Article 17 — Right to erasure (‘right to be forgotten’)`); optionally the document title, the parent
 * chain and the defined terms the chunk uses.
 */
export class StructuralContextGenerator implements ContextGenerator {
  readonly id = "structural:v1";
  private readonly options: StructuralContextOptions;

  constructor(options: StructuralContextOptions = {}) {
    this.options = options;
  }

  /**
   * Ingest workers build their own copy (`structuralContextFromRecipe`) unless the context lists terms: those come
   * from the definitions of every file (`termsFor`), which only the ingesting thread holds.
   */
  get workerRecipe(): WorkerRecipe | undefined {
    const parts = this.options.parts ?? ["section"];
    if (parts.includes("terms")) return undefined;
    return { module: "@hierdoc/contextualizer", factory: "structuralContextFromRecipe", options: { parts, maxTerms: this.options.maxTerms } };
  }

  /** Never fails and never calls a network: one context per request, in order. */
  async generate(requests: ContextRequest[]): Promise<ContextResult[]> {
    return requests.map((r) => ({ chunkId: r.chunk.id, context: this.contextFor(r) }));
  }

  /** The context text for one chunk. */
  contextFor(request: ContextRequest): string {
    const { document, chunk } = request;
    const parts = new Set(this.options.parts ?? ["section"]);
    const out: string[] = [];
    if (parts.has("document") && document.title) out.push(document.title);
    if (parts.has("chain")) out.push(...chunk.parentChain);
    const own = chunk.sectionTitle && chunk.sectionTitle !== chunk.sectionId ? chunk.sectionTitle : chunk.sectionId;
    if (parts.has("section") && own && out[out.length - 1] !== own) out.push(own);
    let text = out.filter(Boolean).join(" › ");
    if (parts.has("terms")) {
      const terms = this.options.termsFor?.(request).slice(0, this.options.maxTerms ?? 8) ?? [];
      if (terms.length > 0) text += `${text ? ". " : ""}Terms: ${terms.join(", ")}.`;
    }
    return text;
  }
}

/** Builds, in an ingest worker, the structural context writer of a {@link StructuralContextGenerator.workerRecipe} (no terms). */
export function structuralContextFromRecipe(options: Omit<StructuralContextOptions, "termsFor">): StructuralContextGenerator {
  return new StructuralContextGenerator(options);
}
