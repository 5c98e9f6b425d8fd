import { HierdocError, type ContextGenerator, type Embedder, type KeywordIndex, type WorkerRecipe } from "@hierdoc/core";
import { acceptsAnalyzed, createAnalyzer, type Analyzer, type AnalyzerOptions } from "@hierdoc/keyword-search";

/**
 * The per-file stages an ingest worker runs after parsing, as plain data sent when it starts: each is the
 * component's {@link WorkerRecipe} and the identity the worker's copy must have.
 */
export interface WorkerComponents {
  context?: { recipe: WorkerRecipe; id: string };
  embedder?: { recipe: WorkerRecipe; id: string; dimensions: number };
  /** The keyword index's analyzer, when the index accepts pre-analysed documents (`acceptsAnalyzed`). */
  keyword?: { analyzer: AnalyzerOptions; id: string };
  /** The workers assemble the chunk records (the indexed texts are known there: contexts written there, or none). */
  records?: boolean;
}

/** The components a worker built from its {@link WorkerComponents}. */
export interface FileStages {
  context?: ContextGenerator;
  embedder?: Embedder;
  /** Analyses the chunks' indexed texts for the keyword index (`analyzeBatch`). */
  analyzer?: Analyzer;
  /** Assemble the chunk records (`assembleRecords`) when the file's hash is given with it. */
  records?: boolean;
}

/**
 * Which of the ingest's context writer, embedder and keyword analysis run in the workers: each one that declares a `workerRecipe`
 * (a capability of the component, e.g. the offline GloVe embedder and the structural context without terms), except
 * that the embedder needs the contexts where it runs (embedded text = context + content), so an embedder runs in the
 * workers only when the contexts do too or there are none. API embedders and LLM writers declare no recipe and stay
 * in the ingesting thread (batching, rate limits, the context cache). The keyword index's analysis runs there when
 * the index accepts pre-analysed documents (`acceptsAnalyzed`: the in-memory BM25) and the indexed texts are known there.
 */
export function workerComponents(embedder: Embedder, generator: ContextGenerator | undefined, keyword?: KeywordIndex): WorkerComponents {
  const context = generator?.workerRecipe ? { recipe: generator.workerRecipe, id: generator.id } : undefined;
  // The indexed text (context + content) is known in the workers only when the contexts are written there too.
  const textsInWorker = generator === undefined || context !== undefined;
  const embedInWorker = embedder.workerRecipe && textsInWorker;
  const analyzeInWorker = keyword !== undefined && acceptsAnalyzed(keyword) && textsInWorker;
  return {
    ...(context ? { context } : {}),
    ...(embedInWorker ? { embedder: { recipe: embedder.workerRecipe!, id: embedder.id, dimensions: embedder.dimensions } } : {}),
    ...(analyzeInWorker ? { keyword: { analyzer: keyword.analyzerOptions, id: keyword.analyzer.id } } : {}),
    ...(textsInWorker ? { records: true } : {}),
  };
}

/**
 * Builds, in a worker, the components a {@link WorkerComponents} names: imports each recipe's module and calls its
 * factory with the recipe's options.
 * @throws HierdocError E_EMBEDDER_MISMATCH when the copy's identity or dimensions differ from the ingesting
 *   thread's (it would embed differently); E_CONFIG when the module or factory is missing; what the factory throws.
 */
export async function buildFileStages(components: WorkerComponents | undefined): Promise<FileStages> {
  const stages: FileStages = {};
  if (components?.context) {
    const generator = await fromRecipe<ContextGenerator>(components.context.recipe);
    if (generator.id !== components.context.id) throw mismatch("context writer", generator.id, components.context.id);
    stages.context = generator;
  }
  if (components?.embedder) {
    const { id, dimensions } = components.embedder;
    const embedder = await fromRecipe<Embedder>(components.embedder.recipe);
    if (embedder.id !== id || embedder.dimensions !== dimensions) throw mismatch("embedder", `${embedder.id} (${embedder.dimensions} dimensions)`, `${id} (${dimensions} dimensions)`);
    stages.embedder = embedder;
  }
  if (components?.keyword) {
    const analyzer = createAnalyzer(components.keyword.analyzer);
    if (analyzer.id !== components.keyword.id) throw mismatch("keyword analyzer", analyzer.id, components.keyword.id);
    stages.analyzer = analyzer;
  }
  if (components?.records) stages.records = true;
  return stages;
}

async function fromRecipe<T>(recipe: WorkerRecipe): Promise<T> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(recipe.module)) as Record<string, unknown>;
  } catch (err) {
    throw new HierdocError("E_CONFIG", `the ingest worker cannot import ${recipe.module}: ${(err as Error).message}`, { cause: err });
  }
  const factory = mod[recipe.factory];
  if (typeof factory !== "function") throw new HierdocError("E_CONFIG", `${recipe.module} has no factory ${recipe.factory} for the ingest workers`);
  return (await (factory as (options: unknown) => T | Promise<T>)(recipe.options)) as T;
}

function mismatch(what: string, got: string, expected: string): HierdocError {
  return new HierdocError("E_EMBEDDER_MISMATCH", `the ingest worker's ${what} is ${got}, the ingesting thread's is ${expected}: it would index differently`, {
    details: { expected, actual: got },
  });
}
