// Factories named by the embedders' `workerRecipe`s: an ingest worker imports this package and calls them with the
// recipe's options to build its own copy of the embedder.
import { GloveEmbedder, type GloveLoadOptions } from "./glove-embedder.js";
import { HashEmbedder, type HashEmbedderOptions } from "./hash-embedder.js";

/**
 * Loads, in an ingest worker, the GloVe embedder of a `GloveEmbedder.workerRecipe`: the same cache file, so the
 * same vectors bit for bit.
 * @throws the errors of {@link GloveEmbedder.load}.
 */
export function gloveEmbedderFromRecipe(options: Pick<GloveLoadOptions, "cacheDir" | "sourcePath" | "sifA">): Promise<GloveEmbedder> {
  return GloveEmbedder.load(options);
}

/**
 * Builds, in an ingest worker, the hash embedder of a `HashEmbedder.workerRecipe`.
 * @throws HierdocError E_CONFIG for bad dimensions.
 */
export function hashEmbedderFromRecipe(options: HashEmbedderOptions): HashEmbedder {
  return new HashEmbedder(options);
}
