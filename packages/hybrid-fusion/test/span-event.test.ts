import { AsyncLocalStorage } from "node:async_hooks";
import { ROOT_CONTEXT, context, trace, type Context, type ContextManager, type Span } from "@opentelemetry/api";
import { SearchRouter } from "@hierdoc/hybrid-fusion";
import { ArrayStore, CountingKeywordIndex, TableEmbedder, record } from "./fakes.js";

/** The smallest AsyncLocalStorage context manager, so the active span follows the awaits. */
class AlsContextManager implements ContextManager {
  private readonly als = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.als.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.als.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.als.disable();
    return this;
  }
}

describe("SearchRouter span events", () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AlsContextManager());
  });
  afterAll(() => {
    context.disable();
  });

  it("adds hierdoc.search.leg_failed to the active span when a leg is dropped", async () => {
    const events: Array<{ name: string; attributes: unknown }> = [];
    const span = trace.wrapSpanContext({ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", traceFlags: 1 }) as Span;
    span.addEvent = (name: string, attributes?: unknown) => {
      events.push({ name, attributes });
      return span;
    };
    const store = new ArrayStore();
    await store.upsert([{ record: record("d1", "alpha"), vector: Float32Array.from([1, 0, 0]) }]);
    const router = new SearchRouter({ store, keyword: new CountingKeywordIndex("fail"), embedder: new TableEmbedder({ alpha: [1, 0, 0] }) });
    const res = await context.with(trace.setSpan(context.active(), span), () => router.search("alpha", { topK: 1 }));
    expect(res.hits.map((h) => h.id)).toEqual(["d1"]);
    expect(events).toEqual([
      { name: "hierdoc.search.leg_failed", attributes: { leg: "keyword", reason: "connect ECONNREFUSED 127.0.0.1:9200", code: "unknown" } },
    ]);
  });
});
