import { lazyImport } from "@hierdoc/core";

/** The `cohere-ai` SDK, loaded on first use. */
export const loadCohere: () => Promise<typeof import("cohere-ai")> = lazyImport(() => import("cohere-ai"));

/** The `voyageai` SDK, loaded on first use. */
export const loadVoyage: () => Promise<typeof import("voyageai")> = lazyImport(() => import("voyageai"));

/** The `@anthropic-ai/sdk` SDK, loaded on first use. */
export const loadAnthropic: () => Promise<typeof import("@anthropic-ai/sdk")> = lazyImport(() => import("@anthropic-ai/sdk"));

/** The `openai` SDK, loaded on first use. */
export const loadOpenAI: () => Promise<typeof import("openai")> = lazyImport(() => import("openai"));
