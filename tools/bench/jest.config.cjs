// The BERT generator test runs ONNX Runtime, which needs the main realm's typed arrays: see tools/jest/onnx-environment.cjs.
module.exports = {
  ...require("../../jest.preset.cjs").project(__dirname),
  testEnvironment: require.resolve("../../tools/jest/onnx-environment.cjs"),
};
