import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TransformersEmbedder } from "@hierdoc/embeddings";
import { BGE_SMALL, MINILM_L6, bertEncoderGraph, bertParameterCount, gaussianFill, type BertShape } from "../src/bert-graph.js";
import { basicTokens, buildWordPieceVocabulary, wordPieces } from "../src/wordpiece-vocab.js";
import { writeBertModelFolder } from "../src/bert-model-folder.js";

const TEXT = [
  "The controller shall erase personal data without undue delay where the data are no longer necessary.",
  "Processing shall be lawful only if the data subject has given consent to the processing of personal data.",
  "Member States may maintain or introduce more specific provisions.",
];

const TINY: BertShape = {
  name: "tiny",
  vocabSize: 120,
  hiddenSize: 8,
  numHiddenLayers: 1,
  numAttentionHeads: 2,
  intermediateSize: 16,
  maxPositionEmbeddings: 32,
  typeVocabSize: 2,
  layerNormEps: 1e-12,
};

// Large weights, so attention is far from uniform and a wrong query/key/head layout would show.
const STD = 0.5;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "hierdoc-bench-bert-"));
});
afterAll(() => rm(work, { recursive: true, force: true }));

// ---- a plain-JS BERT forward pass, the reference the ONNX graph must agree with ----
type Mat = Float32Array; // row-major
function weights(shape: BertShape, seed: number): Map<string, Float32Array> {
  return new Map(bertEncoderGraph(shape, seed, STD).initializers.map((t) => [t.name, t.data as Float32Array]));
}
function matmul(a: Mat, rows: number, inner: number, b: Mat, cols: number): Mat {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let k = 0; k < inner; k++) for (let j = 0; j < cols; j++) out[i * cols + j]! += a[i * inner + k]! * b[k * cols + j]!;
  return out;
}
function layerNorm(x: Mat, rows: number, h: number, eps: number): Mat {
  const out = new Float32Array(x.length);
  for (let i = 0; i < rows; i++) {
    const row = x.subarray(i * h, (i + 1) * h);
    const mean = row.reduce((a, b) => a + b, 0) / h;
    const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / h;
    for (let j = 0; j < h; j++) out[i * h + j] = (row[j]! - mean) / Math.sqrt(variance + eps);
  }
  return out;
}
function erf(x: number): number {
  // Numerical Recipes erfc approximation (fractional error < 1.2e-7).
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y = 1 - t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? y : -y;
}
function referenceMeanPooled(shape: BertShape, seed: number, ids: number[]): Float32Array {
  const w = weights(shape, seed);
  const g = (n: string): Float32Array => w.get(n)!;
  const h = shape.hiddenSize;
  const s = ids.length;
  const nh = shape.numAttentionHeads;
  const d = h / nh;
  let x: Mat = new Float32Array(s * h);
  for (let t = 0; t < s; t++) for (let j = 0; j < h; j++) x[t * h + j] = g("embeddings.word_embeddings.weight")[ids[t]! * h + j]! + g("embeddings.position_embeddings.weight")[t * h + j]! + g("embeddings.token_type_embeddings.weight")[j]!;
  x = layerNorm(x, s, h, shape.layerNormEps);
  for (let l = 0; l < shape.numHiddenLayers; l++) {
    const p = `encoder.layer.${l}`;
    const lin = (input: Mat, name: string, inDim: number, outDim: number): Mat => matmul(input, s, inDim, g(`${name}.weight`), outDim);
    const q = lin(x, `${p}.attention.self.query`, h, h);
    const k = lin(x, `${p}.attention.self.key`, h, h);
    const v = lin(x, `${p}.attention.self.value`, h, h);
    const ctx = new Float32Array(s * h);
    for (let head = 0; head < nh; head++) {
      for (let i = 0; i < s; i++) {
        const scores = Array.from({ length: s }, (_, j) => {
          let dot = 0;
          for (let c = 0; c < d; c++) dot += q[i * h + head * d + c]! * k[j * h + head * d + c]!;
          return dot / Math.sqrt(d);
        });
        const max = Math.max(...scores);
        const e = scores.map((z) => Math.exp(z - max));
        const sum = e.reduce((a, b) => a + b, 0);
        for (let j = 0; j < s; j++) for (let c = 0; c < d; c++) ctx[i * h + head * d + c]! += (e[j]! / sum) * v[j * h + head * d + c]!;
      }
    }
    const attn = lin(ctx, `${p}.attention.output.dense`, h, h).map((y, i) => y + x[i]!);
    x = layerNorm(attn, s, h, shape.layerNormEps);
    const inter = lin(x, `${p}.intermediate.dense`, h, shape.intermediateSize).map((y) => 0.5 * y * (1 + erf(y / Math.SQRT2)));
    const out = matmul(inter, s, shape.intermediateSize, g(`${p}.output.dense.weight`), h).map((y, i) => y + x[i]!);
    x = layerNorm(out, s, h, shape.layerNormEps);
  }
  const pooled = new Float32Array(h);
  for (let t = 0; t < s; t++) for (let j = 0; j < h; j++) pooled[j]! += x[t * h + j]! / s;
  return pooled;
}

describe("BERT encoder generator (random weights of a real shape)", () => {
  it("counts MiniLM-L6's and bge-small's weights as the published models have them (minus the pooler)", () => {
    const pooler = 384 * 384 + 384;
    expect(bertParameterCount(MINILM_L6) + pooler).toBe(22_713_216);
    expect(bertParameterCount(BGE_SMALL) + pooler).toBe(33_360_000);
    const tinyWeights = bertEncoderGraph(TINY).initializers.filter((t) => /\.(weight|bias)$/.test(t.name)).reduce((a, t) => a + t.data.length, 0);
    expect(tinyWeights).toBe(bertParameterCount(TINY));
  });

  it("draws N(0, 0.02²) weights deterministically from the seed", () => {
    const a = gaussianFill(new Float32Array(100_000), 7, 0.02);
    const mean = a.reduce((x, y) => x + y, 0) / a.length;
    const sd = Math.sqrt(a.reduce((x, y) => x + (y - mean) ** 2, 0) / a.length);
    expect(Math.abs(mean)).toBeLessThan(0.0005);
    expect(sd).toBeGreaterThan(0.0195);
    expect(sd).toBeLessThan(0.0205);
    expect(gaussianFill(new Float32Array(10), 7, 0.02)).toEqual(a.subarray(0, 10));
    expect(gaussianFill(new Float32Array(10), 8, 0.02)).not.toEqual(a.subarray(0, 10));
  });

  it("builds a WordPiece vocabulary of the requested size that splits unseen words into pieces", () => {
    const vocab = buildWordPieceVocabulary(TEXT, { size: 400, suffixPieces: 20 });
    expect(vocab).toHaveLength(400);
    expect(new Set(vocab).size).toBe(400);
    expect(vocab.slice(0, 5)).toEqual(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]);
    const set = new Set(vocab);
    expect(wordPieces("processing", set)).toEqual(["processing"]);
    const pieces = wordPieces("reprocessing", set);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.slice(1).every((p) => p.startsWith("##"))).toBe(true);
    expect(pieces.map((p) => p.replace(/^##/, "")).join("")).toBe("reprocessing");
    expect(basicTokens("Article 6(1)(a), GDPR’s Übersicht")).toEqual(["article", "6", "(", "1", ")", "(", "a", ")", ",", "gdpr", "’", "s", "ubersicht"]);
  });

  it("writes a folder TransformersEmbedder loads, whose mean-pooled output matches a plain-JS BERT forward pass", async () => {
    const vocab = buildWordPieceVocabulary(TEXT, { size: TINY.vocabSize, suffixPieces: 10 });
    const dir = join(work, "tiny-bert");
    const folder = await writeBertModelFolder(dir, { shape: TINY, vocabulary: vocab, seed: 3, std: STD });
    expect((await stat(join(dir, "onnx", "model.onnx"))).size).toBe(folder.onnxBytes);
    const e = await TransformersEmbedder.load({ modelPath: dir, normalize: false });
    try {
      expect(e.dimensions).toBe(TINY.hiddenSize);
      const text = "the controller shall erase data";
      const set = new Set(vocab);
      const ids = ["[CLS]", ...basicTokens(text).flatMap((w) => wordPieces(w, set)), "[SEP]"].map((t) => vocab.indexOf(t));
      const expected = referenceMeanPooled(TINY, 3, ids);
      const [got, other] = await e.embedDocuments([text, "member states may introduce provisions"]);
      for (let j = 0; j < TINY.hiddenSize; j++) expect(got![j]).toBeCloseTo(expected[j]!, 4);
      expect(Array.from(other!)).not.toEqual(Array.from(got!));
      // padding in a batch must not change a text's vector (the attention mask works)
      const [alone] = await e.embedDocuments(["member states may introduce provisions"]);
      for (let j = 0; j < TINY.hiddenSize; j++) expect(alone![j]).toBeCloseTo(other![j]!, 4);
      const [shortInBatch] = await e.embedDocuments(["the controller", "the controller shall erase personal data without undue delay where necessary"]);
      const [shortAlone] = await e.embedDocuments(["the controller"]);
      for (let j = 0; j < TINY.hiddenSize; j++) expect(shortInBatch![j]).toBeCloseTo(shortAlone![j]!, 4);
    } finally {
      await e.close();
    }
  });

  it("writes a dynamic-int8 model_quantized.onnx (dtype q8) whose output stays close to the fp32 forward pass", async () => {
    const graph = bertEncoderGraph(TINY, 3, STD, { quantize: "dynamic-int8" });
    const ops = graph.nodes.map((n) => n.op);
    expect(ops.filter((o) => o === "MatMulInteger")).toHaveLength(6 * TINY.numHiddenLayers);
    expect(ops.filter((o) => o === "DynamicQuantizeLinear")).toHaveLength(4 * TINY.numHiddenLayers); // Q/K/V share one
    expect(graph.initializers.some((t) => t.name.endsWith("query.weight"))).toBe(false);
    const vocab = buildWordPieceVocabulary(TEXT, { size: TINY.vocabSize, suffixPieces: 10 });
    const dir = join(work, "tiny-bert-q8");
    const folder = await writeBertModelFolder(dir, { shape: TINY, vocabulary: vocab, seed: 3, std: STD, quantized: true });
    expect(folder.files).toContain("onnx/model_quantized.onnx");
    const e = await TransformersEmbedder.load({ modelPath: dir, dtype: "q8", normalize: false });
    try {
      const text = "the controller shall erase data";
      const set = new Set(vocab);
      const ids = ["[CLS]", ...basicTokens(text).flatMap((w) => wordPieces(w, set)), "[SEP]"].map((t) => vocab.indexOf(t));
      const expected = referenceMeanPooled(TINY, 3, ids);
      const [got] = await e.embedDocuments([text]);
      const dot = expected.reduce((a, v, j) => a + v * got![j]!, 0);
      const cosine = dot / (Math.hypot(...expected) * Math.hypot(...got!));
      expect(cosine).toBeGreaterThan(0.99);
      expect(Array.from(got!)).not.toEqual(Array.from(expected)); // rounded weights: not the fp32 result
    } finally {
      await e.close();
    }
  });
});
