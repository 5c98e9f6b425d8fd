import { HierdocError } from "../errors.js";
import type { VectorStoreAdapter } from "../interfaces.js";
import type { StoreUnderTest } from "./store-conformance.js";

/** Something a test suite starts once and stops at the end (a fake server, a local database). */
export interface SuiteService {
  start(): Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * Starts `service` before the current Jest file's (or `describe` block's) tests and stops it after them,
 * through Jest's injected `beforeAll` / `afterAll`. Returns `service`, so a file can write
 * `const fake = serveDuringSuite(new FakeX())`.
 * @throws HierdocError E_INTERNAL when called outside a Jest test file.
 */
export function serveDuringSuite<S extends SuiteService>(service: S): S {
  const g = globalThis as { beforeAll?: (fn: () => Promise<unknown>) => void; afterAll?: (fn: () => Promise<unknown>) => void };
  if (typeof g.beforeAll !== "function" || typeof g.afterAll !== "function") {
    throw new HierdocError("E_INTERNAL", "serveDuringSuite must be called from a Jest test file (injectGlobals on)");
  }
  g.beforeAll(() => service.start());
  g.afterAll(() => service.stop());
  return service;
}

/**
 * A {@link StoreUnderTest} whose store and reopened store are both `make()` (a new adapter over the same
 * collection, index or namespace), and whose cleanup is `cleanup()`.
 */
export function reopenableStore(make: () => VectorStoreAdapter, cleanup: () => unknown): StoreUnderTest {
  return { store: make(), reopen: async () => make(), cleanup: async () => void (await cleanup()) };
}
