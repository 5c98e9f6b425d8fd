/** A started trace exporter; `shutdown` flushes every span before the process exits. */
export interface Telemetry {
  shutdown(): Promise<void>;
}

/** The OpenTelemetry SDK and OTLP/HTTP exporter, loaded only when `--otel` asks for traces (about 220 modules). */
async function loadOtelSdk() {
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }] = await Promise.all([
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-node"),
  ]);
  return { OTLPTraceExporter, resourceFromAttributes, BatchSpanProcessor, NodeTracerProvider };
}

/**
 * Exports the tool's OpenTelemetry spans (search, keyword leg, ingest stages) to an OTLP/HTTP endpoint:
 * `--otel URL`, else `--otel` alone with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT
 * (+ `/v1/traces`), else http://localhost:4318/v1/traces. Loads the SDK on first use.
 */
export async function startTelemetry(option: string | boolean, env: (name: string) => string | undefined): Promise<Telemetry> {
  const url =
    typeof option === "string"
      ? option
      : (env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? `${(env("OTEL_EXPORTER_OTLP_ENDPOINT") ?? "http://localhost:4318").replace(/\/$/, "")}/v1/traces`);
  const { OTLPTraceExporter, resourceFromAttributes, BatchSpanProcessor, NodeTracerProvider } = await loadOtelSdk();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env("OTEL_SERVICE_NAME") ?? "hierdoc" }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}
