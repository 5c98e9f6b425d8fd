export * from "./errors.js";
export * from "./document.js";
export * from "./search.js";
export * from "./interfaces.js";
export * from "./config.js";
