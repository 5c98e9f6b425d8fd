import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { HierdocError, type RerankCandidate, type RerankScore, type Reranker } from "@hierdoc/core";
import { candidateText } from "./retry.js";

/** Options of {@link CrossEncoderReranker}. */
export interface CrossEncoderRerankerOptions {
  /** Local folder of a transformers.js cross-encoder (config.json, tokenizer.json, onnx/model*.onnx). */
  modelPath: string;
  /** Candidates per forward pass (default 8). */
  batchSize?: number;
  /** Loads `@huggingface/transformers`; injectable for tests. Default: a dynamic import. */
  loadTransformers?: () => Promise<unknown>;
}

interface TransformersModule {
  AutoTokenizer: { from_pretrained(path: string, opts?: object): Promise<TokenizerLike> };
  AutoModelForSequenceClassification: { from_pretrained(path: string, opts?: object): Promise<ModelLike> };
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
}
type TokenizerLike = (a: string[], o: { text_pair: string[]; padding: boolean; truncation: boolean }) => unknown;
type ModelLike = (inputs: unknown) => Promise<{ logits: { data: ArrayLike<number>; dims: number[] } }>;

/**
 * A local cross-encoder (e.g. a bge-reranker or ms-marco MiniLM exported to ONNX) run with transformers.js
 * from a folder on disk; never downloads weights. The model loads on first use.
 * @throws HierdocError E_CONFIG ("model folder not found", "transformers.js not installed") from `rerank`.
 */
export class CrossEncoderReranker implements Reranker {
  readonly id: string;
  private loaded?: Promise<{ tokenizer: TokenizerLike; model: ModelLike }>;

  constructor(private readonly options: CrossEncoderRerankerOptions) {
    this.id = `cross-encoder:${options.modelPath}`;
  }

  /** Scores (query, candidate) pairs with the model's relevance logit and returns the best `topN`. */
  async rerank(query: string, candidates: RerankCandidate[], topN: number): Promise<RerankScore[]> {
    const { tokenizer, model } = await (this.loaded ??= this.load().catch((err: unknown) => {
      this.loaded = undefined;
      throw err;
    }));
    const size = this.options.batchSize ?? 8;
    const out: RerankScore[] = [];
    for (let i = 0; i < candidates.length; i += size) {
      const batch = candidates.slice(i, i + size);
      const inputs = tokenizer(batch.map(() => query), { text_pair: batch.map((c) => candidateText(c, 2000)), padding: true, truncation: true });
      const { logits } = await model(inputs);
      const width = logits.dims[1] ?? 1;
      batch.forEach((c, j) => out.push({ id: c.id, score: Number(logits.data[j * width + (width - 1)]) }));
    }
    return out.sort((a, b) => b.score - a.score).slice(0, topN);
  }

  private async load(): Promise<{ tokenizer: TokenizerLike; model: ModelLike }> {
    const dir = resolve(this.options.modelPath);
    if (!existsSync(join(dir, "config.json"))) {
      throw new HierdocError("E_CONFIG", `rerank.model_path: model folder not found (no config.json in ${dir}); weights are never downloaded`, {
        details: { path: "rerank.model_path", file: dir },
      });
    }
    let tf: TransformersModule;
    try {
      const load = this.options.loadTransformers ?? (() => import(/* webpackIgnore: true */ "@huggingface/transformers" as string));
      tf = (await load()) as TransformersModule;
    } catch (err) {
      throw new HierdocError("E_CONFIG", "transformers.js not installed: `npm install @huggingface/transformers` (with onnxruntime-node) to use the cross-encoder reranker", {
        cause: err,
        details: { path: "rerank.provider" },
      });
    }
    tf.env.allowRemoteModels = false;
    tf.env.allowLocalModels = true;
    const tokenizer = await tf.AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    const model = await tf.AutoModelForSequenceClassification.from_pretrained(dir, { local_files_only: true });
    return { tokenizer, model };
  }
}
