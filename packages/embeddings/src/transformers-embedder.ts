import { basename, dirname, join } from "node:path";
import { homedir } from "node:os";
import { createHash } from "node:crypto";
import { HierdocError, type Embedder } from "@hierdoc/core";
import {
  importTransformers,
  withTransformersEnv,
  type FeatureExtractionPipeline,
  type TransformersImporter,
  type TransformersModule,
} from "./transformers-loader.js";
import { checkModelFolder, onnxFileFor, type TransformersDtype } from "./transformers-model-files.js";
import { normalizeInPlace } from "./vector-math.js";

/** How token vectors become one text vector. */
export type TransformersPooling = "mean" | "cls" | "last_token";

/** Options of {@link TransformersEmbedder.load}. */
export interface TransformersEmbedderOptions {
  /** Hub id (`Xenova/all-MiniLM-L6-v2`); with `modelPath`, only the name recorded in the index. */
  model?: string;
  /** Local model folder (config.json, tokenizer.json, onnx/model*.onnx); when set nothing is downloaded. */
  modelPath?: string;
  /** Weight file to load; default `fp32` (`onnx/model.onnx`); `q8` reads `onnx/model_quantized.onnx`. */
  dtype?: TransformersDtype;
  /** Default `mean` (MiniLM, e5, gte); `cls` for bge. */
  pooling?: TransformersPooling;
  /** L2-normalise vectors; default true. */
  normalize?: boolean;
  /** Prepended to queries (`"query: "` for e5, `"Represent this sentence for searching relevant passages: "` for bge). */
  queryPrefix?: string;
  /** Prepended to documents (`"passage: "` for e5). */
  documentPrefix?: string;
  /** Texts per forward pass; default 16. */
  batchSize?: number;
  /** Expected output size: checked against the model at load. */
  dimensions?: number;
  /** Hub (or mirror) base URL for hub ids; default `https://huggingface.co/`. */
  remoteHost?: string;
  /** Hub revision (branch, tag or commit); default `main`. */
  revision?: string;
  /** Where downloaded models are kept; default `<home>/.cache/hierdoc/transformers`. */
  cacheDir?: string;
  /** Never download (cache only); default: true when HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE is `1`. */
  offline?: boolean;
  /** Download attempts for a hub model after network errors; default 3. */
  downloadAttempts?: number;
  /** Progress messages (downloads). */
  onProgress?: (message: string) => void;
  /** Loads transformers.js; injectable for tests. */
  importer?: TransformersImporter;
}

const DEFAULT_REMOTE = "https://huggingface.co/";
/** transformers.js `LogLevel.ERROR`: its warnings (missing content-length, local path misses) are noise here. */
const QUIET = 40;

function envOffline(): boolean {
  return process.env.HF_HUB_OFFLINE === "1" || process.env.TRANSFORMERS_OFFLINE === "1";
}

function isPermanentFetchError(error: unknown): boolean {
  const text = String((error as Error)?.message ?? error);
  return /\b(401|403|404)\b|Could not locate file|Unauthorized|Forbidden|not found/i.test(text) && !/ECONNREFUSED|ETIMEDOUT|ECONNRESET|fetch failed/i.test(text);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function downloadReporter(onProgress: ((m: string) => void) | undefined) {
  if (!onProgress) return undefined;
  const last = new Map<string, number>();
  return (event: { status?: string; file?: string; progress?: number }) => {
    if (!event.file) return;
    if (event.status === "progress" && typeof event.progress === "number") {
      const step = Math.floor(event.progress / 25);
      if ((last.get(event.file) ?? -1) >= step) return;
      last.set(event.file, step);
      onProgress(`downloading ${event.file}: ${Math.round(event.progress)}%`);
    } else if (event.status === "done") {
      onProgress(`downloaded ${event.file}`);
    }
  };
}

/**
 * Local ONNX embedder through transformers.js (`@huggingface/transformers`, an optional peer dependency)
 * on ONNX Runtime for Node: sentence-transformer models such as all-MiniLM-L6-v2, bge-small, e5-small,
 * gte-small — from a local folder (`modelPath`, never touches the network) or a hub id (downloaded once
 * into `cacheDir`, then read from there). Inputs longer than the model's `model_max_length` are truncated
 * by the tokenizer. Empty texts embed to the zero vector without running the model.
 */
export class TransformersEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly extractor: FeatureExtractionPipeline,
    private readonly options: Required<Pick<TransformersEmbedderOptions, "pooling" | "normalize" | "batchSize">> & TransformersEmbedderOptions,
    id: string,
    dimensions: number,
  ) {
    this.id = id;
    this.dimensions = dimensions;
  }

  /**
   * Loads the model and measures its output size.
   *
   * @throws HierdocError E_CONFIG when transformers.js is not installed, the options name no model, the
   *   local folder lacks a file, or `dimensions` disagrees with the model; E_EMBEDDING when a hub model
   *   cannot be fetched (the message says how to use a local folder instead) or the model fails to run.
   */
  static async load(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
    const dtype = options.dtype ?? "fp32";
    const resolved = { ...options, dtype, pooling: options.pooling ?? "mean", normalize: options.normalize ?? true, batchSize: options.batchSize ?? 16 };
    if (!options.model && !options.modelPath) {
      throw new HierdocError("E_CONFIG", "embedding.provider transformers needs embedding.model_path (a local model folder) or embedding.name (a hub id)", {
        details: { path: "embedding.name" },
      });
    }
    const folder = options.modelPath ? await checkModelFolder(options.modelPath, dtype) : undefined;
    const mod = await importTransformers(options.importer);
    const extractor = folder ? await loadLocal(mod, folder, resolved) : await loadFromHub(mod, options.model!, resolved);
    const name = options.model ?? basename(folder!);
    const probe = await runPipeline(extractor, ["dimension probe"], resolved, name);
    const dimensions = probe.dims[probe.dims.length - 1]!;
    probe.dispose?.();
    if (probe.dims.length !== 2 || !(dimensions > 0)) {
      await extractor.dispose?.();
      throw new HierdocError("E_EMBEDDING", `model ${name} returned a tensor of shape [${probe.dims.join(", ")}] after ${resolved.pooling} pooling, not one vector per text`, {
        details: { path: "embedding.pooling" },
      });
    }
    if (options.dimensions !== undefined && options.dimensions !== dimensions) {
      await extractor.dispose?.();
      throw new HierdocError("E_CONFIG", `embedding.dimensions is ${options.dimensions} but model ${name} produces ${dimensions}-dimensional vectors`, {
        details: { path: "embedding.dimensions" },
      });
    }
    return new TransformersEmbedder(extractor, resolved, transformersEmbedderId(name, resolved), dimensions);
  }

  /** Embeds documents (with `documentPrefix`), `batchSize` at a time, in input order. */
  embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return this.serial(() => this.embedAll(texts, this.options.documentPrefix ?? ""));
  }

  /** Embeds one query (with `queryPrefix`). */
  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await this.serial(() => this.embedAll([text], this.options.queryPrefix ?? ""));
    return vector!;
  }

  /** Releases the ONNX sessions. */
  async close(): Promise<void> {
    await this.extractor.dispose?.();
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async embedAll(texts: string[], prefix: string): Promise<Float32Array[]> {
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    // Batches of similar length: a batch is padded to its longest text, and in document order ~70 % of the
    // positions computed were padding (tools/bench embedder-bench: ~4× more chunks/s sorted). Order is restored.
    const todo = texts
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => t.trim() !== "")
      .sort((a, b) => a.t.length - b.t.length || a.i - b.i);
    for (let start = 0; start < todo.length; start += this.options.batchSize) {
      const batch = todo.slice(start, start + this.options.batchSize);
      const tensor = await runPipeline(this.extractor, batch.map(({ t }) => prefix + t), this.options, this.id);
      const data = tensor.data instanceof Float32Array ? tensor.data : Float32Array.from(tensor.data);
      tensor.dispose?.();
      const d = this.dimensions;
      batch.forEach(({ i }, row) => {
        const vector = out[i]!;
        vector.set(data.subarray(row * d, (row + 1) * d));
        if (!vector.every(Number.isFinite)) {
          throw new HierdocError("E_EMBEDDING", `transformers model ${this.id} returned non-finite values for text ${i}`, { details: { operation: "embed" } });
        }
        // Normalised here, not by transformers.js: its division turns an all-zero vector into NaN.
        if (this.options.normalize) normalizeInPlace(vector);
      });
    }
    return out;
  }
}

/** The identity recorded in an index: model, weights, pooling and anything else that changes vectors. */
export function transformersEmbedderId(
  model: string,
  options: Pick<TransformersEmbedderOptions, "dtype" | "pooling" | "normalize" | "queryPrefix" | "documentPrefix">,
): string {
  const parts = ["transformers", model, options.dtype ?? "fp32", options.pooling ?? "mean"];
  if (options.normalize === false) parts.push("raw");
  if (options.queryPrefix || options.documentPrefix) {
    parts.push(`p${createHash("sha256").update(`${options.queryPrefix ?? ""}\u0000${options.documentPrefix ?? ""}`).digest("hex").slice(0, 8)}`);
  }
  return parts.join(":");
}

async function runPipeline(extractor: FeatureExtractionPipeline, texts: string[], options: { pooling: string }, model: string) {
  try {
    return await extractor(texts, { pooling: options.pooling, normalize: false });
  } catch (cause) {
    throw new HierdocError("E_EMBEDDING", `transformers model ${model} failed to embed ${texts.length} text(s): ${(cause as Error)?.message ?? cause}`, { cause });
  }
}

async function loadLocal(mod: TransformersModule, folder: string, options: TransformersEmbedderOptions & { dtype: TransformersDtype }) {
  try {
    return (await withTransformersEnv(mod, { allowLocalModels: true, allowRemoteModels: false, localModelPath: dirname(folder), logLevel: QUIET }, () =>
      mod.pipeline("feature-extraction", basename(folder), { dtype: options.dtype, local_files_only: true }),
    )) as FeatureExtractionPipeline;
  } catch (cause) {
    throw new HierdocError("E_CONFIG", `could not load the model in ${folder} (${onnxFileFor(options.dtype)}): ${(cause as Error)?.message ?? cause}`, {
      cause,
      details: { path: "embedding.model_path", file: folder },
    });
  }
}

async function loadFromHub(mod: TransformersModule, model: string, options: TransformersEmbedderOptions & { dtype: TransformersDtype }) {
  const remoteHost = options.remoteHost ?? DEFAULT_REMOTE;
  const offline = options.offline ?? envOffline();
  const cacheDir = options.cacheDir ?? join(homedir(), ".cache", "hierdoc", "transformers");
  const attempts = offline ? 1 : Math.max(1, options.downloadAttempts ?? 3);
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return (await withTransformersEnv(
        mod,
        // Offline: only the download cache (checked first by transformers.js) may answer.
        { allowLocalModels: offline, allowRemoteModels: !offline, localModelPath: cacheDir, remoteHost: remoteHost.endsWith("/") ? remoteHost : `${remoteHost}/`, cacheDir, logLevel: QUIET },
        () =>
          mod.pipeline("feature-extraction", model, {
            dtype: options.dtype,
            local_files_only: offline,
            revision: options.revision ?? "main",
            cache_dir: cacheDir,
            progress_callback: downloadReporter(options.onProgress),
          }),
      )) as FeatureExtractionPipeline;
    } catch (cause) {
      lastError = cause;
      if (offline || isPermanentFetchError(cause) || attempt === attempts) break;
      options.onProgress?.(`model download failed (${(cause as Error)?.message ?? cause}); retrying (${attempt}/${attempts - 1})`);
      await sleep(500 * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
    }
  }
  const inner = (lastError as { cause?: { code?: string; message?: string } })?.cause;
  const reason = `${(lastError as Error)?.message ?? String(lastError)}${inner?.code || inner?.message ? ` (${inner.code ?? inner.message})` : ""}`;
  const where = offline ? `the cache ${cacheDir} (offline: HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE or embedding offline)` : remoteHost;
  throw new HierdocError(
    "E_EMBEDDING",
    `could not fetch the weights of transformers model "${model}" (${onnxFileFor(options.dtype)}) from ${where}: ${reason}. ` +
      `Without network access, copy the model folder (config.json, tokenizer.json, tokenizer_config.json, ${onnxFileFor(options.dtype)}) ` +
      "to this machine and set embedding.model_path to it",
    { cause: lastError, retryable: !offline && !isPermanentFetchError(lastError), details: { path: "embedding.name" } },
  );
}
