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
export { wordPieceTokenizerJson, WORDPIECE_SPECIAL_TOKENS } from "./wordpiece-tokenizer.js";
