import type * as JestGlobals from "@jest/globals";
import { HierdocError } from "../errors.js";

/** The Jest functions the shared suites (store conformance, GDPR index hooks) register tests and hooks with. */
export type JestApi = Pick<typeof JestGlobals, "describe" | "it" | "expect" | "beforeEach" | "afterEach" | "beforeAll" | "afterAll">;

/**
 * Jest's injected globals, read when a suite is registered (not when this module loads), so the fixtures
 * and assertion helpers of `@hierdoc/core/testing` can be imported outside Jest too.
 * @throws HierdocError E_INTERNAL when called outside a Jest test file.
 */
export function jestApi(): JestApi {
  const g = globalThis as unknown as Partial<JestApi>;
  if (typeof g.describe !== "function" || typeof g.it !== "function" || typeof g.expect !== "function") {
    throw new HierdocError("E_INTERNAL", "the store conformance suite must be registered from a Jest test file (injectGlobals on)");
  }
  return { describe: g.describe, it: g.it, expect: g.expect, beforeEach: g.beforeEach, afterEach: g.afterEach, beforeAll: g.beforeAll, afterAll: g.afterAll } as JestApi;
}
