/**
 * A minimal writer for the ONNX protobuf messages a test or benchmark model needs (ModelProto,
 * GraphProto, NodeProto, TensorProto, ValueInfoProto, AttributeProto). Field numbers follow
 * onnx/onnx.proto3; only what {@link writeTinyTransformersModel} and the benchmark's BERT generator use
 * is supported. Messages are assembled from byte chunks, so a model of a few hundred MB encodes without
 * copying its weights more than a few times.
 */

type Bytes = Uint8Array;

function varint(value: number | bigint): Bytes {
  let n = BigInt(value);
  if (n < 0n) n += 1n << 64n;
  const out: number[] = [];
  do {
    let byte = Number(n & 0x7fn);
    n >>= 7n;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Uint8Array.from(out);
}

const cat = (parts: Bytes[]): Bytes => Buffer.concat(parts);
const key = (field: number, wireType: number): Bytes => varint((field << 3) | wireType);
const int = (field: number, value: number | bigint): Bytes => cat([key(field, 0), varint(value)]);
const bytes = (field: number, value: Bytes): Bytes => cat([key(field, 2), varint(value.length), value]);
const str = (field: number, value: string): Bytes => bytes(field, Buffer.from(value, "utf8"));
function fixed32Float(field: number, value: number): Bytes {
  const b = Buffer.alloc(4);
  b.writeFloatLE(value);
  return cat([key(field, 5), b]);
}

/** ONNX `TensorProto.DataType` values used here. */
export const OnnxType = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7 } as const;

/** A dimension: a fixed size or a symbolic name (`batch`). */
export type OnnxDim = number | string;

/** A float attribute value (`epsilon`, `alpha`): plain numbers are written as INT attributes. */
export interface OnnxFloatAttribute {
  float: number;
}

/** Wraps a number so {@link encodeOnnxModel} writes it as a FLOAT attribute (`{ epsilon: onnxFloat(1e-12) }`). */
export function onnxFloat(value: number): OnnxFloatAttribute {
  return { float: value };
}

/** One graph node: operator, inputs, outputs and integer / integer-list / float attributes. */
export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, number | number[] | OnnxFloatAttribute>;
}

/** A constant tensor of the graph (`data` must match `type`: FLOAT, INT64, INT8, UINT8 or INT32). */
export interface OnnxInitializer {
  name: string;
  type: number;
  dims: number[];
  data: Float32Array | BigInt64Array | Int8Array | Uint8Array | Int32Array;
}

/** A graph input or output. */
export interface OnnxValue {
  name: string;
  type: number;
  dims: OnnxDim[];
}

/** A whole single-graph model. */
export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxInitializer[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  opset: number;
}

function attribute(name: string, value: number | number[] | OnnxFloatAttribute): Bytes {
  // AttributeProto: name=1, f=2, i=3, ints=8, type=20 (FLOAT=1, INT=2, INTS=7)
  if (Array.isArray(value)) return cat([str(1, name), ...value.map((v) => int(8, v)), int(20, 7)]);
  if (typeof value === "object") return cat([str(1, name), fixed32Float(2, value.float), int(20, 1)]);
  return cat([str(1, name), int(3, value), int(20, 2)]);
}

function node(n: OnnxNode): Bytes {
  // NodeProto: input=1, output=2, name=3, op_type=4, attribute=5
  return cat([
    ...n.inputs.map((i) => str(1, i)),
    ...n.outputs.map((o) => str(2, o)),
    str(3, `${n.op}_${n.outputs[0]}`),
    str(4, n.op),
    ...Object.entries(n.attributes ?? {}).map(([name, value]) => bytes(5, attribute(name, value))),
  ]);
}

function initializer(t: OnnxInitializer): Bytes {
  // TensorProto: dims=1, data_type=2, name=8, raw_data=9 (little-endian)
  const raw = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  return cat([...t.dims.map((d) => int(1, d)), int(2, t.type), str(8, t.name), bytes(9, raw)]);
}

function valueInfo(v: OnnxValue): Bytes {
  // ValueInfoProto: name=1, type=2 → TypeProto.tensor_type=1 → elem_type=1, shape=2 → dim=1 (dim_value=1 | dim_param=2)
  const shape = cat(v.dims.map((d) => bytes(1, typeof d === "string" ? str(2, d) : int(1, d))));
  return cat([str(1, v.name), bytes(2, bytes(1, cat([int(1, v.type), bytes(2, shape)])))]);
}

/** Serialises a graph as an ONNX ModelProto (IR version 8, default domain at `opset`). */
export function encodeOnnxModel(graph: OnnxGraph): Uint8Array {
  const g = cat([
    ...graph.nodes.map((n) => bytes(1, node(n))),
    str(2, graph.name),
    ...graph.initializers.map((t) => bytes(5, initializer(t))),
    ...graph.inputs.map((v) => bytes(11, valueInfo(v))),
    ...graph.outputs.map((v) => bytes(12, valueInfo(v))),
  ]);
  // ModelProto: ir_version=1, producer_name=2, graph=7, opset_import=8 (domain=1, version=2)
  const model = cat([int(1, 8), str(2, "hierdoc-testing"), bytes(7, g), bytes(8, cat([str(1, ""), int(2, graph.opset)]))]);
  return new Uint8Array(model.buffer, model.byteOffset, model.byteLength);
}
