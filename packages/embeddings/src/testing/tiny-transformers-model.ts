import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { encodeOnnxModel, OnnxType, type OnnxGraph } from "./onnx-proto.js";
import { WORDPIECE_SPECIAL_TOKENS, wordPieceTokenizerJson } from "./wordpiece-tokenizer.js";

/** Options of {@link writeTinyTransformersModel}. */
export interface TinyModelOptions {
  /** Lower-case words of the WordPiece vocabulary (special tokens are added). */
  vocabulary: string[];
  /** Words that should embed alike: every word of a group shares one vector (plus a little noise); added to the vocabulary. */
  synonyms?: string[][];
  /** Hidden size; default 32. */
  hidden?: number;
  /** Seed of the deterministic vectors; default 1. */
  seed?: number;
  /** ONNX file name suffix, as transformers.js maps dtypes: `""` (fp32, default), `_quantized` (q8), … */
  fileSuffix?: string;
  /** Largest input in tokens (`model_max_length`); default 512. */
  maxLength?: number;
  /**
   * `feature-extraction` (default): outputs `last_hidden_state`, an embedding model.
   * `sequence-classification`: a cross-encoder whose one logit is the dot product of the summed vectors of
   * the first text (token type 0) and the second (token type 1) — a relevance score for (query, passage).
   */
  head?: "feature-extraction" | "sequence-classification";
}

/** What {@link writeTinyTransformersModel} wrote. */
export interface TinyModel {
  dir: string;
  hidden: number;
  vocabularySize: number;
  files: string[];
}

const SPECIAL = WORDPIECE_SPECIAL_TOKENS;

function hashWord(word: string, seed: number): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
  return h;
}

function vectorFor(word: string, hidden: number, seed: number, noise = 1): Float32Array {
  let s = hashWord(word, seed) || 1;
  const out = new Float32Array(hidden);
  for (let i = 0; i < hidden; i++) {
    s = Math.imul(s ^ (s >>> 15), 2246822507) >>> 0;
    s = Math.imul(s ^ (s >>> 13), 3266489909) >>> 0;
    out[i] = ((s / 2 ** 32) * 2 - 1) * noise;
  }
  return out;
}

const batchSeq = ["batch_size", "sequence_length"];
const LAST_AXIS = { name: "last_axis", type: OnnxType.INT64, dims: [1], data: BigInt64Array.from([-1n]) };

function embeddingGraph(table: Float32Array, rows: number, hidden: number): OnnxGraph {
  return {
    name: "hierdoc-tiny-bert",
    opset: 13,
    nodes: [
      { op: "Gather", inputs: ["word_embeddings", "input_ids"], outputs: ["token_vectors"], attributes: { axis: 0 } },
      { op: "Cast", inputs: ["attention_mask"], outputs: ["mask_float"], attributes: { to: OnnxType.FLOAT } },
      { op: "Unsqueeze", inputs: ["mask_float", "last_axis"], outputs: ["mask_3d"] },
      { op: "Mul", inputs: ["token_vectors", "mask_3d"], outputs: ["last_hidden_state"] },
    ],
    initializers: [{ name: "word_embeddings", type: OnnxType.FLOAT, dims: [rows, hidden], data: table }, LAST_AXIS],
    inputs: [
      { name: "input_ids", type: OnnxType.INT64, dims: batchSeq },
      { name: "attention_mask", type: OnnxType.INT64, dims: batchSeq },
    ],
    outputs: [{ name: "last_hidden_state", type: OnnxType.FLOAT, dims: [...batchSeq, hidden] }],
  };
}

function crossEncoderGraph(table: Float32Array, rows: number, hidden: number): OnnxGraph {
  return {
    name: "hierdoc-tiny-cross-encoder",
    opset: 13,
    nodes: [
      { op: "Gather", inputs: ["word_embeddings", "input_ids"], outputs: ["token_vectors"], attributes: { axis: 0 } },
      { op: "Cast", inputs: ["attention_mask"], outputs: ["mask"], attributes: { to: OnnxType.FLOAT } },
      { op: "Cast", inputs: ["token_type_ids"], outputs: ["types"], attributes: { to: OnnxType.FLOAT } },
      { op: "Mul", inputs: ["mask", "types"], outputs: ["second_mask"] },
      { op: "Sub", inputs: ["mask", "second_mask"], outputs: ["first_mask"] },
      { op: "Unsqueeze", inputs: ["first_mask", "last_axis"], outputs: ["first_mask_3d"] },
      { op: "Unsqueeze", inputs: ["second_mask", "last_axis"], outputs: ["second_mask_3d"] },
      { op: "Mul", inputs: ["token_vectors", "first_mask_3d"], outputs: ["first_tokens"] },
      { op: "Mul", inputs: ["token_vectors", "second_mask_3d"], outputs: ["second_tokens"] },
      { op: "ReduceSum", inputs: ["first_tokens", "sequence_axis"], outputs: ["first_sum"], attributes: { keepdims: 0 } },
      { op: "ReduceSum", inputs: ["second_tokens", "sequence_axis"], outputs: ["second_sum"], attributes: { keepdims: 0 } },
      { op: "Mul", inputs: ["first_sum", "second_sum"], outputs: ["products"] },
      { op: "ReduceSum", inputs: ["products", "last_axis"], outputs: ["logits"], attributes: { keepdims: 1 } },
    ],
    initializers: [
      { name: "word_embeddings", type: OnnxType.FLOAT, dims: [rows, hidden], data: table },
      LAST_AXIS,
      { name: "sequence_axis", type: OnnxType.INT64, dims: [1], data: BigInt64Array.from([1n]) },
    ],
    inputs: [
      { name: "input_ids", type: OnnxType.INT64, dims: batchSeq },
      { name: "attention_mask", type: OnnxType.INT64, dims: batchSeq },
      { name: "token_type_ids", type: OnnxType.INT64, dims: batchSeq },
    ],
    outputs: [{ name: "logits", type: OnnxType.FLOAT, dims: ["batch_size", 1] }],
  };
}

/**
 * Writes a real, tiny BERT-shaped model folder in the layout transformers.js loads (`config.json`,
 * `tokenizer.json`, `tokenizer_config.json`, `onnx/model{suffix}.onnx`): a WordPiece tokenizer over the
 * given words and an ONNX graph whose `last_hidden_state` is each token's vector masked by
 * `attention_mask` — so mean pooling gives a bag-of-words embedding (special and unknown tokens are zero
 * vectors). For tests and demos that must run
 * the real transformers.js + ONNX Runtime path without downloading weights; it has no language skill.
 */
export async function writeTinyTransformersModel(dir: string, options: TinyModelOptions): Promise<TinyModel> {
  const hidden = options.hidden ?? 32;
  const seed = options.seed ?? 1;
  const words = [...new Set([...options.vocabulary, ...(options.synonyms ?? []).flat()].map((w) => w.toLowerCase()))].filter((w) => !SPECIAL.includes(w as never));
  const vocab = [...SPECIAL, ...words];
  const groupOf = new Map<string, string>();
  for (const group of options.synonyms ?? []) for (const w of group) groupOf.set(w.toLowerCase(), group[0]!.toLowerCase());

  const table = new Float32Array(vocab.length * hidden);
  vocab.forEach((word, row) => {
    if (row < SPECIAL.length) return; // special tokens (and [UNK], e.g. punctuation) carry no meaning: zero vectors
    const group = groupOf.get(word);
    const base = vectorFor(group ?? word, hidden, seed);
    if (group) {
      const jitter = vectorFor(word, hidden, seed + 1, 0.1);
      for (let i = 0; i < hidden; i++) base[i]! += jitter[i]!;
    }
    table.set(base, row * hidden);
  });

  const classifier = options.head === "sequence-classification";
  const model = encodeOnnxModel(classifier ? crossEncoderGraph(table, vocab.length, hidden) : embeddingGraph(table, vocab.length, hidden));

  const maxLength = options.maxLength ?? 512;
  const tokenizer = wordPieceTokenizerJson(vocab);

  const onnxFile = join("onnx", `model${options.fileSuffix ?? ""}.onnx`);
  await mkdir(join(dir, "onnx"), { recursive: true });
  await writeFile(join(dir, onnxFile), model);
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify(
      {
        model_type: "bert",
        architectures: [classifier ? "BertForSequenceClassification" : "BertModel"],
        hidden_size: hidden,
        vocab_size: vocab.length,
        max_position_embeddings: maxLength,
        ...(classifier ? { num_labels: 1, id2label: { 0: "LABEL_0" }, label2id: { LABEL_0: 0 } } : {}),
      },
      null,
      2,
    ),
  );
  await writeFile(
    join(dir, "tokenizer_config.json"),
    JSON.stringify(
      { tokenizer_class: "BertTokenizer", do_lower_case: true, model_max_length: maxLength, cls_token: "[CLS]", sep_token: "[SEP]", pad_token: "[PAD]", unk_token: "[UNK]", mask_token: "[MASK]" },
      null,
      2,
    ),
  );
  await writeFile(join(dir, "tokenizer.json"), JSON.stringify(tokenizer));
  return { dir, hidden, vocabularySize: vocab.length, files: ["config.json", "tokenizer.json", "tokenizer_config.json", onnxFile] };
}
