import { afterAll, describe, expect, it } from "@jest/globals";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolConfigSchema, type ChunkRecord } from "@hierdoc/core";
import { HashEmbedder } from "@hierdoc/embeddings";
import { BM25_FILE_NAME } from "@hierdoc/keyword-search";
import { MemoryStore } from "@hierdoc/store-adapters-memory";
import { HierarchicalDocumentTool, type IngestReport } from "@hierdoc/tool";
import { workspace } from "./helpers.js";

// Worker threads run the built packages (dist): `npm test` builds first.
const ws = workspace();
afterAll(() => ws.cleanup());

/** The real hash embedder, counting the texts it embeds in this (the test's) thread: worker copies are not counted. */
class CountingHashEmbedder extends HashEmbedder {
  embeddedHere = 0;
  override async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    this.embeddedHere += texts.length;
    return super.embedDocuments(texts);
  }
}

interface Ingested {
  records: ChunkRecord[];
  /** The stored vectors' bytes, in record order. */
  vectors: string[];
  files: Record<string, Buffer>;
  /** The saved keyword index (bm25.bin). */
  bm25: Buffer;
  report: IngestReport;
  embeddedHere: number;
}

/** Ingests `docs` into a fresh index with `workers` threads; returns the stored records (in store order), their vectors and the files of the index folder. */
async function ingestWith(workers: number, contextual = true): Promise<Ingested> {
  const index = join(ws.dir, `index-${workers}-${contextual}`);
  const store = new MemoryStore({ dir: join(index, "store") });
  const config = ToolConfigSchema.parse({ name: "t", type: "hierarchical_document", source: ws.docs, ingest: { workers }, contextual_embeddings: contextual });
  const embedder = new CountingHashEmbedder({ dimensions: 64 });
  const tool = await HierarchicalDocumentTool.open({ config, indexDir: index, store, embedder });
  try {
    const report = await tool.ingest([ws.docs]);
    expect(report.files.map((f) => f.outcome)).toEqual(Array(report.files.length).fill("added"));
    const records: ChunkRecord[] = [];
    for await (const r of store.scan()) records.push(r);
    const withVectors = await store.getWithVectors(records.map((r) => r.id));
    const vectors = withVectors.map((r) => Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength).toString("base64"));
    const storeDir = join(index, "store");
    const files = Object.fromEntries(readdirSync(storeDir).sort().map((f) => [f, readFileSync(join(storeDir, f))]));
    const bm25 = readFileSync(join(index, "keyword", BM25_FILE_NAME));
    return { records, vectors, files, bm25, report, embeddedHere: embedder.embeddedHere };
  } finally {
    await tool.close();
  }
}

describe("ingest stores the same records in the same order whatever the number of workers", () => {
  it("1 and 4 workers over a folder of 9 files give identical records, ids, order, store files and bm25.bin", async () => {
    // The sample corpus plus files with definitions and cross-references, of very different sizes, so workers
    // finish out of order.
    for (let i = 0; i < 6; i++) {
      const articles = Array.from(
        { length: 1 + i * 7 },
        (_, a) =>
          `## Article ${a + 1} Duties ${i}.${a}\n\n"Operator ${i}" means the person running unit ${i}. ` +
          `The operator shall keep records as set out in Article ${((a + 1) % (1 + i * 7)) + 1} and notify the authority within ${a + 2} days.\n`,
      );
      writeFileSync(join(ws.docs, `regulation-${i}.md`), `# Regulation ${i}\n\n${articles.join("\n")}`);
    }
    const one = await ingestWith(1);
    const four = await ingestWith(4);
    expect(one.records.length).toBeGreaterThan(30);
    expect(new Set(one.records.map((r) => r.sourcePath)).size).toBe(9);
    expect(one.records.some((r) => r.definitions.length > 0 && r.crossReferences.length > 0)).toBe(true);
    expect(four.records.map((r) => r.id)).toEqual(one.records.map((r) => r.id));
    expect(four.records).toEqual(one.records);
    expect(Object.keys(four.files)).toEqual(Object.keys(one.files));
    // Every store file is byte-for-byte the same; the manifest differs only in its write time.
    const comparable = (name: string, bytes: Buffer) => (name === "manifest.json" ? { ...JSON.parse(bytes.toString("utf8")), writtenAt: undefined } : bytes.toString("base64"));
    for (const name of Object.keys(one.files)) expect([name, comparable(name, four.files[name]!)]).toEqual([name, comparable(name, one.files[name]!)]);
    expect(Object.keys(one.files).length).toBeGreaterThan(2);
    // The workers wrote the contexts and embedded (the hash embedder declares a worker recipe): none in this thread,
    // and the per-file stage timings still reported.
    expect([one.embeddedHere, four.embeddedHere]).toEqual([0, 0]);
    expect(four.report.timingsMs.embed).toBeGreaterThan(0);
    expect(four.report.timingsMs.context).toBeGreaterThan(0);
    // The workers analysed the indexed texts for BM25 (this thread only added the terms): the same keyword index.
    expect(four.report.timingsMs.analyze).toBeGreaterThan(0);
    // ... and assembled the records (they crossed the thread boundary as records, not as chunks + sections + references).
    expect(four.report.timingsMs.records).toBeGreaterThan(0);
    expect(four.bm25.equals(one.bm25)).toBe(true);
    // Records and vectors bit for bit as this thread's path (workers: 0) writes them.
    const here = await ingestWith(0);
    expect(here.embeddedHere).toBe(one.records.length);
    expect(here.records).toEqual(one.records);
    expect(one.records.every((r) => r.context !== "" && r.indexedText.startsWith(r.context))).toBe(true);
    expect(here.vectors).toEqual(one.vectors);
    expect(here.report.timingsMs.analyze).toBeUndefined();
    expect(here.report.timingsMs.records).toBeUndefined();
    expect(one.bm25.length).toBeGreaterThan(1000);
    expect(one.bm25.equals(here.bm25)).toBe(true);
    expect(four.vectors).toEqual(one.vectors);
    expect(new Set(one.vectors).size).toBeGreaterThan(one.records.length / 2);
  }, 180_000);

  it("without contexts the workers embed the content alone, as this thread does", async () => {
    const here = await ingestWith(0, false);
    const two = await ingestWith(2, false);
    expect(two.embeddedHere).toBe(0);
    expect(here.records.every((r) => r.context === "" && r.indexedText === r.content)).toBe(true);
    expect(two.records).toEqual(here.records);
    expect(two.vectors).toEqual(here.vectors);
    expect(two.report.timingsMs.analyze).toBeGreaterThan(0);
    expect(two.bm25.equals(here.bm25)).toBe(true);
  }, 120_000);
});
