/**
 * A minimal writer for the ONNX protobuf messages a tiny test model needs (ModelProto, GraphProto,
 * NodeProto, TensorProto, ValueInfoProto). Field numbers follow onnx/onnx.proto3; only what
 * {@link writeTinyTransformersModel} uses is supported.
 */

type Bytes = number[];

function varint(value: number | bigint): Bytes {
  let n = BigInt(value);
  if (n < 0n) n += 1n << 64n;
  const out: Bytes = [];
  do {
    let byte = Number(n & 0x7fn);
    n >>= 7n;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

const key = (field: number, wireType: number): Bytes => varint((field << 3) | wireType);
const int = (field: number, value: number | bigint): Bytes => [...key(field, 0), ...varint(value)];
const bytes = (field: number, value: ArrayLike<number>): Bytes => [...key(field, 2), ...varint(value.length), ...Array.from(value)];
const str = (field: number, value: string): Bytes => bytes(field, Buffer.from(value, "utf8"));

/** ONNX `TensorProto.DataType` values used here. */
export const OnnxType = { FLOAT: 1, INT64: 7 } as const;

/** A dimension: a fixed size or a symbolic name (`batch`). */
export type OnnxDim = number | string;

/** One graph node: operator, inputs, outputs and integer / integer-list attributes. */
export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, number | number[]>;
}

/** A constant tensor of the graph. */
export interface OnnxInitializer {
  name: string;
  type: number;
  dims: number[];
  data: Float32Array | BigInt64Array;
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

function attribute(name: string, value: number | number[]): Bytes {
  // AttributeProto: name=1, i=3, ints=8, type=20 (INT=2, INTS=7)
  return Array.isArray(value)
    ? [...str(1, name), ...value.flatMap((v) => int(8, v)), ...int(20, 7)]
    : [...str(1, name), ...int(3, value), ...int(20, 2)];
}

function node(n: OnnxNode): Bytes {
  // NodeProto: input=1, output=2, name=3, op_type=4, attribute=5
  return [
    ...n.inputs.flatMap((i) => str(1, i)),
    ...n.outputs.flatMap((o) => str(2, o)),
    ...str(3, `${n.op}_${n.outputs[0]}`),
    ...str(4, n.op),
    ...Object.entries(n.attributes ?? {}).flatMap(([name, value]) => bytes(5, attribute(name, value))),
  ];
}

function initializer(t: OnnxInitializer): Bytes {
  // TensorProto: dims=1, data_type=2, name=8, raw_data=9 (little-endian)
  const raw = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  return [...t.dims.flatMap((d) => int(1, d)), ...int(2, t.type), ...str(8, t.name), ...bytes(9, raw)];
}

function valueInfo(v: OnnxValue): Bytes {
  // ValueInfoProto: name=1, type=2 → TypeProto.tensor_type=1 → elem_type=1, shape=2 → dim=1 (dim_value=1 | dim_param=2)
  const shape = v.dims.flatMap((d) => bytes(1, typeof d === "string" ? str(2, d) : int(1, d)));
  return [...str(1, v.name), ...bytes(2, bytes(1, [...int(1, v.type), ...bytes(2, shape)]))];
}

/** Serialises a graph as an ONNX ModelProto (IR version 8, default domain at `opset`). */
export function encodeOnnxModel(graph: OnnxGraph): Uint8Array {
  const g: Bytes = [
    ...graph.nodes.flatMap((n) => bytes(1, node(n))),
    ...str(2, graph.name),
    ...graph.initializers.flatMap((t) => bytes(5, initializer(t))),
    ...graph.inputs.flatMap((v) => bytes(11, valueInfo(v))),
    ...graph.outputs.flatMap((v) => bytes(12, valueInfo(v))),
  ];
  // ModelProto: ir_version=1, producer_name=2, graph=7, opset_import=8 (domain=1, version=2)
  return Uint8Array.from([...int(1, 8), ...str(2, "hierdoc-testing"), ...bytes(7, g), ...bytes(8, [...str(1, ""), ...int(2, graph.opset)])]);
}
