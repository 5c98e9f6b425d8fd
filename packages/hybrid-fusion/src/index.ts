export { type RankedList, type FusedHit, emptyLegValues } from "./fused-hit.js";
export { weightedRrf, type RrfOptions } from "./weighted-rrf.js";
export { applyExactBoost, type ExactBoostOptions } from "./exact-boost.js";
export { convexFusion, minMaxNormalize } from "./convex-fusion.js";
export { SearchRouter } from "./search-router.js";
export type {
  ExactLookup, FusionMethod, SearchRouterOptions, RouterWarning, RouterSearchOptions, RoutedHit, RouterResponse,
} from "./router-types.js";
