export { writeTinyTransformersModel, type TinyModel, type TinyModelOptions } from "./tiny-transformers-model.js";
export { encodeOnnxModel, OnnxType, type OnnxGraph, type OnnxNode, type OnnxInitializer, type OnnxValue, type OnnxDim } from "./onnx-proto.js";
