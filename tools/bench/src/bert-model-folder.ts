// Writes a BERT model folder in the layout transformers.js loads, with random weights of a real shape.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { encodeOnnxModel } from "@hierdoc/embeddings/testing";
import { bertEncoderGraph, type BertShape } from "./bert-graph.js";
import { wordPieceTokenizerJson } from "./wordpiece-vocab.js";

/** Options of {@link writeBertModelFolder}. */
export interface BertFolderOptions {
  shape: BertShape;
  /** The WordPiece vocabulary; its length must equal `shape.vocabSize`. */
  vocabulary: readonly string[];
  /** Weight seed; default 1. */
  seed?: number;
  /** Standard deviation of the random weights; default 0.02. */
  std?: number;
  /** Also write `onnx/model_quantized.onnx` (dynamic int8, loaded with `dtype: "q8"`). */
  quantized?: boolean;
  /** Tokenizer truncation length (`model_max_length`); default the shape's `maxPositionEmbeddings`. */
  maxLength?: number;
}

/** What {@link writeBertModelFolder} wrote. */
export interface BertFolder {
  dir: string;
  onnxBytes: number;
  /** Size of `onnx/model_quantized.onnx` when written. */
  quantizedBytes?: number;
  files: string[];
}

/**
 * Writes `config.json`, `tokenizer.json`, `tokenizer_config.json` and `onnx/model.onnx` (fp32; optionally
 * `onnx/model_quantized.onnx`) of a BERT
 * encoder with random weights — loadable by `TransformersEmbedder.load({ modelPath: dir })`.
 *
 * @throws RangeError when the vocabulary size differs from the shape's, or `maxLength` exceeds the position table.
 */
export async function writeBertModelFolder(dir: string, o: BertFolderOptions): Promise<BertFolder> {
  const s = o.shape;
  if (o.vocabulary.length !== s.vocabSize) throw new RangeError(`vocabulary has ${o.vocabulary.length} entries, the shape ${s.vocabSize}`);
  const maxLength = o.maxLength ?? s.maxPositionEmbeddings;
  if (maxLength > s.maxPositionEmbeddings) throw new RangeError(`maxLength ${maxLength} exceeds ${s.maxPositionEmbeddings} position embeddings`);
  const model = encodeOnnxModel(bertEncoderGraph(s, o.seed ?? 1, o.std ?? 0.02));
  await mkdir(join(dir, "onnx"), { recursive: true });
  await writeFile(join(dir, "onnx", "model.onnx"), model);
  const files = ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"];
  let quantizedBytes: number | undefined;
  if (o.quantized) {
    const q = encodeOnnxModel(bertEncoderGraph(s, o.seed ?? 1, o.std ?? 0.02, { quantize: "dynamic-int8" }));
    await writeFile(join(dir, "onnx", "model_quantized.onnx"), q);
    quantizedBytes = q.byteLength;
    files.push("onnx/model_quantized.onnx");
  }
  const config = {
    _name_or_path: `hierdoc-bench random-weight ${s.name}`,
    model_type: "bert",
    architectures: ["BertModel"],
    vocab_size: s.vocabSize,
    hidden_size: s.hiddenSize,
    num_hidden_layers: s.numHiddenLayers,
    num_attention_heads: s.numAttentionHeads,
    intermediate_size: s.intermediateSize,
    hidden_act: "gelu",
    max_position_embeddings: s.maxPositionEmbeddings,
    type_vocab_size: s.typeVocabSize,
    layer_norm_eps: s.layerNormEps,
    pad_token_id: 0,
  };
  await writeFile(join(dir, "config.json"), JSON.stringify(config, null, 2));
  const tokenizerConfig = {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: maxLength,
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    mask_token: "[MASK]",
  };
  await writeFile(join(dir, "tokenizer_config.json"), JSON.stringify(tokenizerConfig, null, 2));
  await writeFile(join(dir, "tokenizer.json"), JSON.stringify(wordPieceTokenizerJson(o.vocabulary)));
  return { dir, onnxBytes: model.byteLength, ...(quantizedBytes !== undefined ? { quantizedBytes } : {}), files };
}
