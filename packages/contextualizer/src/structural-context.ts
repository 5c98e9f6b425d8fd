import type { ContextGenerator, ContextRequest, ContextResult } from "@hierdoc/core";

/** Options of {@link StructuralContextGenerator}. */
export interface StructuralContextOptions {
  /** Defined terms a chunk uses (from the corpus' definitions), listed in the context. */
  termsFor?: (request: ContextRequest) => string[];
  /** At most this many terms are listed. Default 8. */
  maxTerms?: number;
}

/**
 * Offline context for a chunk, used when no LLM is configured: document title, parent chain,
 * section id and title, and the defined terms the chunk uses, e.g.
 * `Regulation (EU) 2016/679 › Chapter III › Section 3 › Article 17 — Right to erasure. Terms: personal data, controller.`
 */
export class StructuralContextGenerator implements ContextGenerator {
  readonly id = "structural:v1";
  private readonly options: StructuralContextOptions;

  constructor(options: StructuralContextOptions = {}) {
    this.options = options;
  }

  /** Never fails and never calls a network: one context per request, in order. */
  async generate(requests: ContextRequest[]): Promise<ContextResult[]> {
    return requests.map((r) => ({ chunkId: r.chunk.id, context: this.contextFor(r) }));
  }

  /** The context text for one chunk. */
  contextFor(request: ContextRequest): string {
    const { document, chunk } = request;
    const parts: string[] = [];
    if (document.title) parts.push(document.title);
    parts.push(...chunk.parentChain);
    const own = chunk.sectionTitle && chunk.sectionTitle !== chunk.sectionId ? chunk.sectionTitle : chunk.sectionId;
    if (own && parts[parts.length - 1] !== own) parts.push(own);
    let text = parts.filter(Boolean).join(" › ");
    const terms = this.options.termsFor?.(request).slice(0, this.options.maxTerms ?? 8) ?? [];
    if (terms.length > 0) text += `${text ? ". " : ""}Terms: ${terms.join(", ")}.`;
    return text;
  }
}
