export { StructuralContextGenerator, type StructuralContextOptions } from "./structural-context.js";
