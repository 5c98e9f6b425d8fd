import { MockLLM } from "@llamaindex/core/llms/mock";

/** LlamaIndex's own MockLLM that also records the prompts it was given (to check what the synthesizer sent). */
export class RecordingMockLLM extends MockLLM {
  readonly prompts: string[] = [];

  constructor(options?: ConstructorParameters<typeof MockLLM>[0]) {
    super(options);
    const complete = this.complete.bind(this);
    this.complete = ((params: { prompt: unknown }) => {
      this.prompts.push(String(params.prompt));
      return complete(params as never);
    }) as unknown as MockLLM["complete"];
  }
}
