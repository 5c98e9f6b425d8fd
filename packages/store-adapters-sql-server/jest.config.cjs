module.exports = require("../../jest.preset.cjs").project(__dirname);
