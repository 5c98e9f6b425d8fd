import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Prometheus metrics of one server (own registry, so several servers in one process do not clash). */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"method" | "route" | "status">;
  private readonly latency: Histogram<"method" | "route">;

  /** `chunkCount` is read at scrape time for the `hierdoc_index_chunks` gauge. */
  constructor(chunkCount: () => number) {
    collectDefaultMetrics({ register: this.registry, prefix: "hierdoc_" });
    this.requests = new Counter({
      name: "hierdoc_http_requests_total",
      help: "HTTP requests by method, route pattern and status code",
      labelNames: ["method", "route", "status"],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: "hierdoc_http_request_duration_seconds",
      help: "HTTP request latency by method and route pattern",
      labelNames: ["method", "route"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    new Gauge({
      name: "hierdoc_index_chunks",
      help: "Chunks in the served index",
      registers: [this.registry],
      collect() {
        this.set(chunkCount());
      },
    });
  }

  /** Records one finished request. `route` is the route pattern (`/sections/:id`), never the raw path. */
  observe(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }

  /** The text exposition format and its content type. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
