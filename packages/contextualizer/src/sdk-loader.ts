import { lazyImport } from "@hierdoc/core";

/** The `@anthropic-ai/sdk` SDK, loaded on first use. */
export const loadAnthropic: () => Promise<typeof import("@anthropic-ai/sdk")> = lazyImport(() => import("@anthropic-ai/sdk"));

/** The `openai` SDK, loaded on first use. */
export const loadOpenAI: () => Promise<typeof import("openai")> = lazyImport(() => import("openai"));
