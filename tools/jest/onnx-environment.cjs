// A Jest node environment for tests that run ONNX Runtime (transformers.js) in-process.
// onnxruntime-node creates output tensors' typed arrays in Node's main realm, while Jest evaluates
// onnxruntime-common inside a vm context whose Float32Array is a different constructor, so ORT's own
// `data instanceof Float32Array` check fails ("A float32 tensor's data must be type of function
// Float32Array()"). Plain Node has one realm and never sees this; the environment below gives the test
// context the main realm's typed-array constructors.
const { TestEnvironment } = require("jest-environment-node");

const TYPED_ARRAYS = [
  "ArrayBuffer",
  "Int8Array",
  "Uint8Array",
  "Uint8ClampedArray",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "BigInt64Array",
  "BigUint64Array",
];

class OnnxEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

module.exports = OnnxEnvironment;
