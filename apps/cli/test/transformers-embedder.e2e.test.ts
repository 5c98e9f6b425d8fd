import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTinyTransformersModel } from "@hierdoc/embeddings/testing";
import { runCli, SAMPLE } from "./run-cli.js";

/**
 * The `transformers` embedder end to end: the built CLI runs transformers.js + ONNX Runtime on a tiny real
 * model folder written by the test (no weights can be downloaded here), whose vocabulary is the sample
 * corpus' words.
 */
describe("hierdoc with embedding.provider transformers (local ONNX model folder)", () => {
  const tmp = mkdtempSync(join(tmpdir(), "hierdoc-onnx-"));
  const model = join(tmp, "tiny-model");
  const index = join(tmp, "index");
  const yaml = (embedding: string) => `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${SAMPLE}\n    embedding: ${embedding}\n`;
  const config = join(tmp, "agent.yaml");

  beforeAll(async () => {
    const words = new Set<string>();
    for (const file of readdirSync(SAMPLE)) {
      for (const w of readFileSync(join(SAMPLE, file), "utf8").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) words.add(w);
    }
    await writeTinyTransformersModel(model, { vocabulary: [...words], synonyms: [["inspect", "examine", "audit"]] });
    writeFileSync(config, yaml(`{ provider: transformers, model_path: ${model} }`));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("ingests the sample corpus, records the embedder, and answers semantic and hybrid searches", async () => {
    const ingest = await runCli(["ingest", "--config", config, "--tool", "docs", "--index", index, "--json"]);
    expect(ingest.stderr).not.toContain("error:");
    expect(ingest.code).toBe(0);
    expect(JSON.parse(ingest.stdout).files).toHaveLength(3);

    const stats = JSON.parse((await runCli(["stats", "--index", index, "--json"])).stdout);
    expect(stats.embedder).toBe("transformers:tiny-model:fp32:mean");
    expect(stats.dimensions).toBe(32);

    // "audit" is not in the corpus: the model's synonym (inspect, in Section 8) decides; without the synonym
    // group this query ranks Section 3 first.
    const semantic = await runCli(["search", "audit the systems of a contractor", "--index", index, "--mode", "semantic", "--json", "--top-k", "3"]);
    expect(semantic.code).toBe(0);
    const top = JSON.parse(semantic.stdout).results[0];
    expect(top.section_id).toBe("Section 8");
    expect(top.content).toContain("inspect");

    const hybrid = JSON.parse((await runCli(["search", "Section 7", "--index", index, "--json", "--top-k", "1"])).stdout);
    expect(hybrid.results[0].section_id).toBe("Section 7");
  });

  it("refuses to search that index with another embedder (E_EMBEDDER_MISMATCH naming both)", async () => {
    const glove = join(tmp, "glove.yaml");
    writeFileSync(glove, yaml("{ provider: glove }"));
    const res = await runCli(["search", "port records", "--config", glove, "--tool", "docs", "--index", index]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("E_EMBEDDER_MISMATCH");
    expect(res.stderr).toContain("transformers:tiny-model:fp32:mean");
  });

  it("a missing model folder or an unreachable hub is one clear error line and exit code 2 / 1", async () => {
    const missing = join(tmp, "missing.yaml");
    writeFileSync(missing, yaml(`{ provider: transformers, model_path: ${join(tmp, "nope")} }`));
    const bad = await runCli(["search", "port records", "--config", missing, "--tool", "docs", "--index", index]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`embedding.model_path ${join(tmp, "nope")} is not a folder`);

    const hub = join(tmp, "hub.yaml");
    writeFileSync(hub, yaml("{ provider: transformers, name: acme/tiny-model, base_url: 'http://127.0.0.1:9/' }"));
    const offline = await runCli(["ingest", "--config", hub, "--tool", "docs", "--index", join(tmp, "index-hub")], {
      env: { HIERDOC_CACHE_DIR: join(tmp, "cache") },
    });
    expect(offline.code).not.toBe(0);
    expect(offline.stderr).toMatch(/could not fetch the weights of transformers model "acme\/tiny-model".*embedding\.model_path/);
  });
});
