import type { CrossReference } from "@hierdoc/core";
import type { SectionResolver } from "@hierdoc/definitions";

/** What search results and `refs` need of a resolver. */
export type ReferenceResolver = Pick<SectionResolver, "resolve">;

/**
 * A section resolver over a persisted base (the one `derived.bin` holds) and the sources changed since it was
 * written (`changed`: every source with a base chunk removed or a chunk added; `overlay` is built over the
 * current chunks of those sources alone), answering as one resolver built over every current catalog entry
 * (the base's live entries in store order, then the changed sources' entries) would, without building it:
 * - a reference inside a document resolves in that document only: in the overlay when the document changed,
 *   else in the base;
 * - a reference to another document is looked up in the base (its changed sources skipped) and in the overlay;
 *   when only one finds a target, that is the answer. When both do (the citation names an unchanged and a
 *   changed document), which comes first depends on the id level each matched at, so that reference is
 *   answered by the full resolver, built by `buildFull` on first need (as expensive as before this class).
 */
export class LayeredResolver implements ReferenceResolver {
  private full: SectionResolver | null = null;

  constructor(
    private readonly base: SectionResolver,
    private readonly changed: ReadonlySet<string>,
    private readonly overlay: SectionResolver,
    private readonly buildFull: () => SectionResolver,
  ) {}

  /** Resolves one reference made in `fromSourcePath` (see {@link SectionResolver.resolve}). */
  resolve(ref: CrossReference, fromSourcePath: string): CrossReference {
    if (!ref.external) return this.changed.has(fromSourcePath) ? this.overlay.resolve(ref, fromSourcePath) : this.base.resolve(ref, fromSourcePath);
    const inBase = this.base.resolve(ref, fromSourcePath, (source) => this.changed.has(source));
    const inOverlay = this.overlay.resolve(ref, fromSourcePath);
    if (inBase.external) return inOverlay;
    if (inOverlay.external) return inBase;
    return (this.full ??= this.buildFull()).resolve(ref, fromSourcePath);
  }

  /** True once a reference needed the full resolver (for tests and debugging). */
  get builtFull(): boolean {
    return this.full !== null;
  }
}
