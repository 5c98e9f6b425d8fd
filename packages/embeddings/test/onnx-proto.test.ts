import { encodeOnnxModel, onnxFloat, OnnxType, type OnnxGraph } from "@hierdoc/embeddings/testing";

function graph(attributes: Record<string, number | number[] | ReturnType<typeof onnxFloat>>): OnnxGraph {
  return {
    name: "g",
    opset: 17,
    nodes: [{ op: "LayerNormalization", inputs: ["x", "scale"], outputs: ["y"], attributes }],
    initializers: [{ name: "scale", type: OnnxType.FLOAT, dims: [2], data: Float32Array.from([1, 1]) }],
    inputs: [{ name: "x", type: OnnxType.FLOAT, dims: ["batch", 2] }],
    outputs: [{ name: "y", type: OnnxType.FLOAT, dims: ["batch", 2] }],
  };
}

function indexOf(haystack: Uint8Array, needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const ascii = (s: string): number[] => Array.from(Buffer.from(s, "ascii"));

describe("encodeOnnxModel attributes", () => {
  it("writes a float attribute as AttributeProto f (fixed32, field 2) with type FLOAT (1)", () => {
    const model = encodeOnnxModel(graph({ epsilon: onnxFloat(0.25) }));
    // attribute=5 (len 17): name=1 "epsilon", f=2 fixed32 0.25 (0x3e800000 LE), type=20 varint 1
    const expected = [0x2a, 17, 0x0a, 7, ...ascii("epsilon"), 0x15, 0x00, 0x00, 0x80, 0x3e, 0xa0, 0x01, 0x01];
    expect(indexOf(model, expected)).toBeGreaterThan(0);
  });

  it("keeps plain numbers as INT attributes and arrays as INTS", () => {
    const model = encodeOnnxModel(graph({ axis: -1, perm: [0, 2] }));
    // axis: i=3 varint -1 (ten bytes), type INT (2); perm: ints=8 0, 2, type INTS (7)
    const minusOne = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    expect(indexOf(model, [0x0a, 4, ...ascii("axis"), 0x18, ...minusOne, 0xa0, 0x01, 0x02])).toBeGreaterThan(0);
    expect(indexOf(model, [0x0a, 4, ...ascii("perm"), 0x40, 0, 0x40, 2, 0xa0, 0x01, 0x07])).toBeGreaterThan(0);
  });

  it("writes 8-bit initializers as raw bytes with their data type", () => {
    const g = graph({});
    g.initializers.push({ name: "q", type: OnnxType.INT8, dims: [3], data: Int8Array.from([-1, 0, 127]) });
    const model = encodeOnnxModel(g);
    // TensorProto: dims=1 3, data_type=2 INT8 (3), name=8 "q", raw_data=9 [0xff, 0, 0x7f]
    expect(indexOf(model, [0x08, 3, 0x10, 3, 0x42, 1, ...ascii("q"), 0x4a, 3, 0xff, 0x00, 0x7f])).toBeGreaterThan(0);
  });

  it("encodes a multi-megabyte initializer without losing a byte", () => {
    const big = new Float32Array(2_000_000).map((_, i) => i);
    const g = graph({});
    g.initializers.push({ name: "big", type: OnnxType.FLOAT, dims: [big.length], data: big });
    const model = encodeOnnxModel(g);
    const raw = new Uint8Array(big.buffer);
    const at = indexOf(model.subarray(0, 200), [0x42, 3, ...ascii("big"), 0x4a]);
    expect(at).toBeGreaterThanOrEqual(0);
    const start = at + 6 + 4; // tag, length varint (8 000 000 → 4 bytes)
    expect(Buffer.from(model.subarray(start, start + raw.length)).equals(Buffer.from(raw))).toBe(true);
  });
});
