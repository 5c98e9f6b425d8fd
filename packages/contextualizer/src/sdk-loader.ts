/**
 * A memoised dynamic import: the first call starts loading the module, later calls share its promise, and a
 * failed load is tried again on the next call. Client SDKs load through these, so a process that never calls
 * an LLM never loads its SDK.
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}

/** The `@anthropic-ai/sdk` SDK, loaded on first use. */
export const loadAnthropic: () => Promise<typeof import("@anthropic-ai/sdk")> = lazyImport(() => import("@anthropic-ai/sdk"));

/** The `openai` SDK, loaded on first use. */
export const loadOpenAI: () => Promise<typeof import("openai")> = lazyImport(() => import("openai"));
