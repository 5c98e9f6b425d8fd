import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/** A started trace exporter; `shutdown` flushes every span before the process exits. */
export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Exports the tool's OpenTelemetry spans (search, keyword leg, ingest stages) to an OTLP/HTTP endpoint:
 * `--otel URL`, else `--otel` alone with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT
 * (+ `/v1/traces`), else http://localhost:4318/v1/traces.
 */
export function startTelemetry(option: string | boolean, env: (name: string) => string | undefined): Telemetry {
  const url =
    typeof option === "string"
      ? option
      : (env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? `${(env("OTEL_EXPORTER_OTLP_ENDPOINT") ?? "http://localhost:4318").replace(/\/$/, "")}/v1/traces`);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env("OTEL_SERVICE_NAME") ?? "hierdoc" }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}
