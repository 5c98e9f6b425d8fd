// A standard BERT encoder (the architecture of all-MiniLM-L6-v2, bge-small, e5-small) as an ONNX graph of
// standard opset-17 operators, with random weights of the exact shape: compute cost does not depend on
// weight values, so it measures what a real sentence-transformer costs without downloading one.
import { OnnxType, onnxFloat, type OnnxGraph, type OnnxInitializer, type OnnxNode } from "@hierdoc/embeddings/testing";

/** The shape of a BERT encoder (Hugging Face `config.json` names). */
export interface BertShape {
  /** Name used in reports (`all-MiniLM-L6-v2`). */
  name: string;
  vocabSize: number;
  hiddenSize: number;
  numHiddenLayers: number;
  numAttentionHeads: number;
  intermediateSize: number;
  maxPositionEmbeddings: number;
  typeVocabSize: number;
  layerNormEps: number;
}

/** sentence-transformers/all-MiniLM-L6-v2: 6 layers, 384 hidden, 12 heads, 1536 intermediate (22.6 M weights without the unused pooler). */
export const MINILM_L6: BertShape = {
  name: "all-MiniLM-L6-v2",
  vocabSize: 30522,
  hiddenSize: 384,
  numHiddenLayers: 6,
  numAttentionHeads: 12,
  intermediateSize: 1536,
  maxPositionEmbeddings: 512,
  typeVocabSize: 2,
  layerNormEps: 1e-12,
};

/** BAAI/bge-small-en-v1.5 and intfloat/e5-small-v2 share this shape: 12 layers of MiniLM's width (33.2 M weights without the pooler). */
export const BGE_SMALL: BertShape = { ...MINILM_L6, name: "bge-small-en-v1.5 / e5-small-v2", numHiddenLayers: 12 };

/** Number of weights of a shape (embeddings, layers; no pooler). */
export function bertParameterCount(s: BertShape): number {
  const h = s.hiddenSize;
  const embeddings = (s.vocabSize + s.maxPositionEmbeddings + s.typeVocabSize) * h + 2 * h;
  const layer = 4 * (h * h + h) + 2 * h + (h * s.intermediateSize + s.intermediateSize) + (s.intermediateSize * h + h) + 2 * h;
  return embeddings + s.numHiddenLayers * layer;
}

/** Deterministic N(0, std²) samples (mulberry32 + Box–Muller). */
export function gaussianFill(out: Float32Array, seed: number, std: number): Float32Array {
  let a = seed >>> 0 || 1;
  const uniform = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297; // (0, 1)
  };
  for (let i = 0; i < out.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(uniform())) * std;
    const theta = 2 * Math.PI * uniform();
    out[i] = r * Math.cos(theta);
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(theta);
  }
  return out;
}

/** Options of {@link bertEncoderGraph}. */
export interface BertGraphOptions {
  /** `dynamic-int8`: int8 projection weights with dynamically quantised uint8 activations. */
  quantize?: "dynamic-int8";
}

const i64 = (...v: number[]): BigInt64Array => BigInt64Array.from(v.map(BigInt));

/**
 * Builds the encoder: word + position + token-type embeddings (Gather, position rows sliced to the
 * sequence length), LayerNormalization, then per layer Q/K/V projections (MatMul + Add) reshaped to
 * heads, scaled dot-product attention with an additive mask ((1 − mask) · −10000 on [b, 1, 1, s]),
 * Softmax, output projection, residual + LayerNormalization, FFN with exact GELU
 * (0.5 · x · (1 + erf(x / √2))), residual + LayerNormalization. Inputs `input_ids`, `attention_mask`,
 * `token_type_ids` (int64 [batch, sequence]); output `last_hidden_state` (float [batch, sequence, hidden]).
 * Weights are N(0, std²) from `seed` (default 0.02, BERT's initialiser range); LayerNorm scales 1, biases 0.
 *
 * With `quantize: "dynamic-int8"` every projection is written as ONNX Runtime's `quantize_dynamic`
 * writes it (the layout of `onnx/model_quantized.onnx` exports): DynamicQuantizeLinear of the
 * activations (uint8), MatMulInteger with per-tensor int8 weights, Cast, Mul by both scales, Add bias.
 * The int8 weights are the fp32 weights of the same seed, rounded; embeddings stay fp32.
 *
 * @throws RangeError when the hidden size is not a multiple of the head count.
 */
export function bertEncoderGraph(s: BertShape, seed = 1, std = 0.02, options: BertGraphOptions = {}): OnnxGraph {
  const h = s.hiddenSize;
  if (h % s.numAttentionHeads !== 0) throw new RangeError(`hidden size ${h} is not a multiple of ${s.numAttentionHeads} heads`);
  const headDim = h / s.numAttentionHeads;
  const nodes: OnnxNode[] = [];
  const inits: OnnxInitializer[] = [];
  let nextSeed = seed;
  const draw = (dims: number[]): Float32Array => gaussianFill(new Float32Array(dims.reduce((a, b) => a * b, 1)), nextSeed++ * 7919, std);
  const random = (name: string, dims: number[]): string => {
    inits.push({ name, type: OnnxType.FLOAT, dims, data: draw(dims) });
    return name;
  };
  const filled = (name: string, dims: number[], value: number): string => {
    inits.push({ name, type: OnnxType.FLOAT, dims, data: new Float32Array(dims.reduce((a, b) => a * b, 1)).fill(value) });
    return name;
  };
  const ints = (name: string, values: number[]): string => {
    inits.push({ name, type: OnnxType.INT64, dims: [values.length], data: i64(...values) });
    return name;
  };
  const scalar = (name: string, value: number): string => {
    inits.push({ name, type: OnnxType.FLOAT, dims: [], data: Float32Array.from([value]) });
    return name;
  };
  const op = (type: string, inputs: string[], output: string, attributes?: OnnxNode["attributes"]): string => {
    nodes.push({ op: type, inputs, outputs: [output], ...(attributes ? { attributes } : {}) });
    return output;
  };
  const layerNorm = (x: string, prefix: string): string =>
    op("LayerNormalization", [x, filled(`${prefix}.weight`, [h], 1), filled(`${prefix}.bias`, [h], 0)], `${prefix}.out`, { axis: -1, epsilon: onnxFloat(s.layerNormEps) });
  const quantized = new Map<string, [string, string, string]>(); // activation → its DynamicQuantizeLinear outputs
  const quantizedMatMul = (x: string, prefix: string, inDim: number, outDim: number): string => {
    const w = draw([inDim, outDim]);
    const scale = w.reduce((m, v) => Math.max(m, Math.abs(v)), 0) / 127 || 1;
    inits.push({ name: `${prefix}.weight_quantized`, type: OnnxType.INT8, dims: [inDim, outDim], data: Int8Array.from(w, (v) => Math.round(v / scale)) });
    inits.push({ name: `${prefix}.weight_scale`, type: OnnxType.FLOAT, dims: [], data: Float32Array.from([scale]) });
    inits.push({ name: `${prefix}.weight_zero_point`, type: OnnxType.INT8, dims: [], data: Int8Array.from([0]) });
    let q = quantized.get(x);
    if (!q) {
      q = [`${x}.quantized`, `${x}.scale`, `${x}.zero_point`];
      nodes.push({ op: "DynamicQuantizeLinear", inputs: [x], outputs: q });
      quantized.set(x, q);
    }
    const product = op("MatMulInteger", [q[0], `${prefix}.weight_quantized`, q[2], `${prefix}.weight_zero_point`], `${prefix}.mm_int`);
    const scales = op("Mul", [q[1], `${prefix}.weight_scale`], `${prefix}.scales`);
    return op("Mul", [op("Cast", [product], `${prefix}.mm_float`, { to: OnnxType.FLOAT }), scales], `${prefix}.mm`);
  };
  const linear = (x: string, prefix: string, inDim: number, outDim: number): string => {
    const mm = options.quantize ? quantizedMatMul(x, prefix, inDim, outDim) : op("MatMul", [x, random(`${prefix}.weight`, [inDim, outDim])], `${prefix}.mm`);
    return op("Add", [mm, filled(`${prefix}.bias`, [outDim], 0)], `${prefix}.out`);
  };

  // Embeddings.
  const words = op("Gather", [random("embeddings.word_embeddings.weight", [s.vocabSize, h]), "input_ids"], "embeddings.words", { axis: 0 });
  const types = op("Gather", [random("embeddings.token_type_embeddings.weight", [s.typeVocabSize, h]), "token_type_ids"], "embeddings.types", { axis: 0 });
  const shape = op("Shape", ["input_ids"], "input_shape");
  const seqLen = op("Slice", [shape, ints("const.one", [1]), ints("const.two", [2])], "sequence_length");
  const positions = op("Slice", [random("embeddings.position_embeddings.weight", [s.maxPositionEmbeddings, h]), ints("const.zero", [0]), seqLen, ints("const.axis0", [0])], "embeddings.positions");
  const summed = op("Add", [op("Add", [words, types], "embeddings.words_types"), positions], "embeddings.sum");
  let x = layerNorm(summed, "embeddings.LayerNorm");

  // Additive attention mask [b, 1, 1, s].
  const maskFloat = op("Cast", ["attention_mask"], "mask.float", { to: OnnxType.FLOAT });
  const mask4 = op("Unsqueeze", [maskFloat, ints("const.axes12", [1, 2])], "mask.4d");
  const maskBias = op("Mul", [op("Sub", [scalar("const.f1", 1), mask4], "mask.inverted"), scalar("const.neg", -10000)], "mask.bias");
  const headsShape = ints("const.heads_shape", [0, 0, s.numAttentionHeads, headDim]);
  const mergedShape = ints("const.merged_shape", [0, 0, h]);
  const sqrtHead = scalar("const.sqrt_head_dim", Math.sqrt(headDim));
  const sqrt2 = scalar("const.sqrt2", Math.SQRT2);
  const half = scalar("const.half", 0.5);

  for (let l = 0; l < s.numHiddenLayers; l++) {
    const p = `encoder.layer.${l}`;
    const heads = (name: string, perm: number[]): string =>
      op("Transpose", [op("Reshape", [linear(x, `${p}.attention.self.${name}`, h, h), headsShape], `${p}.${name}.heads`)], `${p}.${name}.t`, { perm });
    const q = heads("query", [0, 2, 1, 3]);
    const k = heads("key", [0, 2, 3, 1]);
    const v = heads("value", [0, 2, 1, 3]);
    const scores = op("Add", [op("Div", [op("MatMul", [q, k], `${p}.scores`), sqrtHead], `${p}.scaled`), maskBias], `${p}.masked`);
    const probs = op("Softmax", [scores], `${p}.probs`, { axis: -1 });
    const context = op("Transpose", [op("MatMul", [probs, v], `${p}.context`)], `${p}.context.t`, { perm: [0, 2, 1, 3] });
    const merged = op("Reshape", [context, mergedShape], `${p}.context.merged`);
    const attnOut = linear(merged, `${p}.attention.output.dense`, h, h);
    x = layerNorm(op("Add", [attnOut, x], `${p}.attention.residual`), `${p}.attention.output.LayerNorm`);
    const inter = linear(x, `${p}.intermediate.dense`, h, s.intermediateSize);
    const erf = op("Erf", [op("Div", [inter, sqrt2], `${p}.gelu.scaled`)], `${p}.gelu.erf`);
    const gelu = op("Mul", [op("Mul", [inter, op("Add", [erf, scalar(`${p}.gelu.one`, 1)], `${p}.gelu.plus1`)], `${p}.gelu.prod`), half], `${p}.gelu`);
    const ffnOut = linear(gelu, `${p}.output.dense`, s.intermediateSize, h);
    x = layerNorm(op("Add", [ffnOut, x], `${p}.output.residual`), `${p}.output.LayerNorm`);
  }
  op("Identity", [x], "last_hidden_state");

  const batchSeq = ["batch_size", "sequence_length"];
  return {
    name: `hierdoc-bench-bert-${s.numHiddenLayers}l-${h}h${options.quantize ? "-q8" : ""}`,
    opset: 17,
    nodes,
    initializers: inits,
    inputs: [
      { name: "input_ids", type: OnnxType.INT64, dims: batchSeq },
      { name: "attention_mask", type: OnnxType.INT64, dims: batchSeq },
      { name: "token_type_ids", type: OnnxType.INT64, dims: batchSeq },
    ],
    outputs: [{ name: "last_hidden_state", type: OnnxType.FLOAT, dims: [...batchSeq, h] }],
  };
}
