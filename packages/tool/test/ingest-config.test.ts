import { describe, expect, it } from "@jest/globals";
import { loadToolConfig } from "@hierdoc/tool";
import type { HierdocError } from "@hierdoc/core";

const entry = (extra: string) => `tools:
  - name: docs
    type: hierarchical_document
    source: ./docs
${extra}`;

function configError(yaml: string): HierdocError {
  try {
    loadToolConfig(yaml, { file: "agent.yaml" });
  } catch (e) {
    return e as HierdocError;
  }
  throw new Error("expected E_CONFIG");
}

describe("ingest keys of a tool entry: include, exclude, limits, ingest.workers", () => {
  it("defaults: no globs, the converter caps, workers left to the machine", () => {
    const cfg = loadToolConfig(entry(""), { file: "agent.yaml" });
    expect(cfg.include).toBeUndefined();
    expect(cfg.exclude).toBeUndefined();
    expect(cfg.limits).toEqual({ max_file_mb: 64, max_pages: 10_000, max_zip_inflated_mb: 256, max_xml_entities: 256, timeout_seconds: 120, max_memory_mb: 1024 });
    expect(cfg.ingest.workers).toBeUndefined();
  });

  it("reads globs, partial limits over the defaults, and a worker count", () => {
    const cfg = loadToolConfig(
      entry(`    include: ["*.py", "src/**/*.rs"]
    exclude: ["drafts/**"]
    limits: { timeout_seconds: 30, max_memory_mb: 512 }
    ingest: { workers: 0 }
`),
      { file: "agent.yaml" },
    );
    expect(cfg.include).toEqual(["*.py", "src/**/*.rs"]);
    expect(cfg.exclude).toEqual(["drafts/**"]);
    expect(cfg.limits.timeout_seconds).toBe(30);
    expect(cfg.limits.max_memory_mb).toBe(512);
    expect(cfg.limits.max_pages).toBe(10_000);
    expect(cfg.ingest.workers).toBe(0);
  });

  it("names every bad value with its line and YAML path", () => {
    const err = configError(
      entry(`    include: "*.py"
    limits:
      timeout_seconds: 0
      max_memory_mb: 8
      max_pagez: 3
    ingest: { workers: -1 }
`),
    );
    expect(err.code).toBe("E_CONFIG");
    expect(err.message).toContain("agent.yaml:5: tools[0].include");
    expect(err.message).toContain("agent.yaml:7: tools[0].limits.timeout_seconds");
    expect(err.message).toContain("agent.yaml:8: tools[0].limits.max_memory_mb");
    expect(err.message).toMatch(/tools\[0\]\.limits: unknown key\(s\): max_pagez/);
    expect(err.message).toContain("tools[0].ingest.workers");
  });
});
