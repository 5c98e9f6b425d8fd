import { HierdocError } from "@hierdoc/core";

/** The pinned transformers.js version hierdoc is tested with (an optional peer dependency). */
export const TRANSFORMERS_VERSION = "4.3.2";

/** The part of transformers.js' global `env` hierdoc sets before loading a model. */
export interface TransformersEnv {
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  localModelPath: string;
  remoteHost: string;
  cacheDir: string | null;
  /** transformers.js log level (40 = errors only: hierdoc reports load failures itself). */
  logLevel: number;
}

/** A tensor as transformers.js returns it. */
export interface TransformersTensor {
  dims: number[];
  data: ArrayLike<number>;
  dispose?(): void;
}

/** A `feature-extraction` pipeline. */
export interface FeatureExtractionPipeline {
  (texts: string[], options: { pooling: string; normalize: boolean }): Promise<TransformersTensor>;
  dispose?(): Promise<void>;
}

/** The part of the `@huggingface/transformers` module hierdoc uses (declared here so it stays optional). */
export interface TransformersModule {
  env: TransformersEnv;
  pipeline(task: "feature-extraction", model: string, options?: Record<string, unknown>): Promise<unknown>;
}

/** Loads `@huggingface/transformers`; injectable so tests can simulate a missing install. */
export type TransformersImporter = () => Promise<unknown>;

const defaultImporter: TransformersImporter = () => import("@huggingface/transformers");

/**
 * Imports transformers.js, or fails with `E_CONFIG` saying how to install it (it is an optional peer
 * dependency: ~450 MB with ONNX Runtime, so only users of `provider: transformers` pay for it).
 */
export async function importTransformers(importer: TransformersImporter = defaultImporter): Promise<TransformersModule> {
  let mod: unknown;
  try {
    mod = await importer();
  } catch (cause) {
    throw new HierdocError(
      "E_CONFIG",
      `embedding.provider transformers needs transformers.js, which is not installed: run \`npm install -E @huggingface/transformers@${TRANSFORMERS_VERSION}\` ` +
        "(on machines that cannot download ONNX Runtime's GPU extras, put `onnxruntime-node-install=skip` in .npmrc)",
      { cause, details: { path: "embedding.provider" } },
    );
  }
  const m = mod as Partial<TransformersModule>;
  if (typeof m.pipeline !== "function" || typeof m.env !== "object" || m.env === null) {
    throw new HierdocError("E_CONFIG", `@huggingface/transformers did not export pipeline/env; install version ${TRANSFORMERS_VERSION}`, {
      details: { path: "embedding.provider" },
    });
  }
  return m as TransformersModule;
}

let envLock: Promise<unknown> = Promise.resolve();

/**
 * Runs `load` with transformers.js' process-wide `env` set to `settings`, one load at a time, so two
 * models with different sources (a local folder, a hub mirror) never see each other's settings. The env
 * only matters while files are read; a loaded pipeline keeps its sessions.
 */
export function withTransformersEnv<T>(mod: TransformersModule, settings: Partial<TransformersEnv>, load: () => Promise<T>): Promise<T> {
  const run = async () => {
    const saved: Partial<TransformersEnv> = {};
    for (const key of Object.keys(settings) as (keyof TransformersEnv)[]) (saved as Record<string, unknown>)[key] = mod.env[key];
    Object.assign(mod.env, settings);
    try {
      return await load();
    } finally {
      Object.assign(mod.env, saved);
    }
  };
  const result = envLock.then(run, run);
  envLock = result.catch(() => undefined);
  return result;
}
