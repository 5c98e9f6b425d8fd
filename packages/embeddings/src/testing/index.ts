export { writeTinyTransformersModel, type TinyModel, type TinyModelOptions } from "./tiny-transformers-model.js";
export {
  encodeOnnxModel,
  onnxFloat,
  OnnxType,
  type OnnxGraph,
  type OnnxNode,
  type OnnxInitializer,
  type OnnxValue,
  type OnnxDim,
  type OnnxFloatAttribute,
} from "./onnx-proto.js";
