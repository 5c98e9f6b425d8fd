import { readFileSync } from "node:fs";
import { HierdocError } from "@hierdoc/core";
import { FEATURE_NAMES, type FeatureName, type FeatureRow } from "./features.js";

/** Regression trees as parallel arrays; node 0 is the root, a node with `feature[i] === -1` is a leaf. */
export interface RankerTree {
  /** Index into the model's `features`, or -1 for a leaf. */
  feature: number[];
  /** Go left when the feature value is `<=` the threshold. */
  threshold: number[];
  left: number[];
  right: number[];
  /** Leaf output (already scaled by the learning rate). */
  value: number[];
}

interface RankerModelBase {
  format: "hierdoc-ranker";
  version: 1;
  /** Feature names the model reads, in the order of its weights / tree feature indexes. */
  features: FeatureName[];
  /** Free-form provenance: data set, candidates, folds, date. */
  trainedOn?: Record<string, unknown>;
  /** Cross-validated metrics measured when the model was trained. */
  metrics?: Record<string, unknown>;
}

/** A linear model over standardised features: `Σ weights[j] · (x[j] − mean[j]) / scale[j]`. */
export interface LinearRankerModel extends RankerModelBase {
  kind: "linear";
  mean: number[];
  scale: number[];
  weights: number[];
}

/** Gradient-boosted regression trees (LambdaMART): the score is the sum of the trees' leaf values. */
export interface TreesRankerModel extends RankerModelBase {
  kind: "trees";
  trees: RankerTree[];
}

/** A learned ranker as stored in its versioned JSON file. */
export type RankerModel = LinearRankerModel | TreesRankerModel;

const KNOWN = new Set<string>(FEATURE_NAMES);

function bad(source: string, path: string, message: string): HierdocError {
  return new HierdocError("E_CONFIG", `${source}: ${path}: ${message}`, { details: { file: source, path } });
}

function numbers(v: unknown, n: number, source: string, path: string, integer = false): number[] {
  if (!Array.isArray(v) || v.length !== n || !v.every((x) => typeof x === "number" && Number.isFinite(x) && (!integer || Number.isInteger(x)))) {
    throw bad(source, path, `expected ${n} finite ${integer ? "integers" : "numbers"}`);
  }
  return v as number[];
}

/**
 * Checks a parsed ranker JSON: format `hierdoc-ranker` version 1, known feature names, array lengths and
 * tree links in range. `source` names the file in errors.
 * @throws HierdocError E_CONFIG naming the file and the JSON path of the first problem.
 */
export function parseRankerModel(value: unknown, source = "ranker model"): RankerModel {
  const m = value as {
    format?: unknown; version?: unknown; kind?: unknown; features?: string[]; mean?: unknown; scale?: unknown; weights?: unknown;
    trees?: Array<Record<keyof RankerTree, unknown>>;
  } | null;
  if (!m || typeof m !== "object") throw bad(source, "$", "not a JSON object");
  if (m.format !== "hierdoc-ranker") throw bad(source, "format", `expected "hierdoc-ranker" (got ${JSON.stringify(m.format)})`);
  if (m.version !== 1) throw bad(source, "version", `unsupported version ${JSON.stringify(m.version)} (this build reads 1)`);
  if (!Array.isArray(m.features) || m.features.length === 0) throw bad(source, "features", "expected a non-empty list of feature names");
  m.features.forEach((f, i) => {
    if (!KNOWN.has(f)) throw bad(source, `features[${i}]`, `unknown feature ${JSON.stringify(f)} (known: ${FEATURE_NAMES.join(", ")})`);
  });
  const n = m.features.length;
  if (m.kind === "linear") {
    numbers(m.mean, n, source, "mean");
    numbers(m.scale, n, source, "scale").forEach((s, i) => {
      if (s <= 0) throw bad(source, `scale[${i}]`, "must be > 0");
    });
    numbers(m.weights, n, source, "weights");
    return m as unknown as LinearRankerModel;
  }
  if (m.kind === "trees") {
    if (!Array.isArray(m.trees)) throw bad(source, "trees", "expected a list of trees");
    m.trees.forEach((t, ti) => {
      const size = Array.isArray(t?.feature) ? (t.feature as unknown[]).length : -1;
      if (size < 1) throw bad(source, `trees[${ti}].feature`, "expected a non-empty list");
      const feat = numbers(t.feature, size, source, `trees[${ti}].feature`, true);
      numbers(t.threshold, size, source, `trees[${ti}].threshold`);
      const left = numbers(t.left, size, source, `trees[${ti}].left`, true);
      const right = numbers(t.right, size, source, `trees[${ti}].right`, true);
      numbers(t.value, size, source, `trees[${ti}].value`);
      for (let i = 0; i < size; i++) {
        if (feat[i] === -1) continue;
        if (feat[i] < 0 || feat[i] >= n) throw bad(source, `trees[${ti}].feature[${i}]`, `feature index out of range 0..${n - 1}`);
        // Children come after their parent, so a model cannot loop.
        for (const [name, c] of [["left", left[i]], ["right", right[i]]] as const) {
          if (c <= i || c >= size) throw bad(source, `trees[${ti}].${name}[${i}]`, `child index must be in ${i + 1}..${size - 1}`);
        }
      }
    });
    return m as unknown as TreesRankerModel;
  }
  throw bad(source, "kind", `expected "linear" or "trees" (got ${JSON.stringify(m.kind)})`);
}

/**
 * Reads and checks a ranker JSON file (synchronously: a model is a few kB and read once per reranker).
 * @throws HierdocError E_CONFIG when the file is missing, not JSON, or not a valid model.
 */
export function loadRankerModel(file: string): RankerModel {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new HierdocError("E_CONFIG", `rerank.model_path: cannot read ranker model ${file}: ${(err as Error).message}`, {
      cause: err,
      details: { path: "rerank.model_path", file },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HierdocError("E_CONFIG", `${file}: not valid JSON: ${(err as Error).message}`, { cause: err, details: { file } });
  }
  return parseRankerModel(json, file);
}

/**
 * The model's score of one candidate (higher is better). `scratch` (at least `model.features.length`
 * long) spares a vector per call when scoring many rows.
 */
export function scoreRow(model: RankerModel, row: FeatureRow, scratch: Float64Array = new Float64Array(model.features.length)): number {
  const { features } = model;
  for (let j = 0; j < features.length; j++) scratch[j] = row[features[j]];
  return scoreVector(model, scratch);
}

/** The model's score of a feature vector in the order of `model.features`. */
export function scoreVector(model: RankerModel, x: ArrayLike<number>): number {
  if (model.kind === "linear") {
    let s = 0;
    for (let j = 0; j < model.weights.length; j++) s += (model.weights[j] * (x[j] - model.mean[j])) / model.scale[j];
    return s;
  }
  let s = 0;
  for (const t of model.trees) {
    let i = 0;
    while (t.feature[i] !== -1) i = x[t.feature[i]] <= t.threshold[i] ? t.left[i] : t.right[i];
    s += t.value[i];
  }
  return s;
}
