export { AnnIndex, resolveAnnOptions } from "./ann-index.js";
export type { AnnHit, AnnIndexOptions, AnnQuantization, ResolvedAnnOptions } from "./ann-index.js";
