import type {
  ChunkRecord, Embedder, KeywordDocument, KeywordIndex, KeywordSearchOptions, ScoredId, StoreCapabilities, StoreQuery,
  StoreRecord, VectorStoreAdapter,
} from "@hierdoc/core";

/** Three-dimensional vectors picked per query, so cosine order is known by construction. */
export class TableEmbedder implements Embedder {
  readonly id = "table";
  readonly dimensions = 3;
  calls = 0;
  constructor(private readonly table: Record<string, number[]>, private readonly fail = false) {}
  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return Promise.all(texts.map((t) => this.embedQuery(t)));
  }
  async embedQuery(text: string): Promise<Float32Array> {
    this.calls++;
    if (this.fail) throw new Error("embedding endpoint unreachable");
    return Float32Array.from(this.table[text] ?? [0, 0, 0]);
  }
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function termCount(text: string, query: string): number {
  const words = text.toLowerCase().split(/\W+/);
  return query.toLowerCase().split(/\W+/).filter(Boolean).reduce((s, q) => s + words.filter((w) => w === q).length, 0);
}

/** Counts query-word occurrences; a real (tiny) keyword index. */
export class CountingKeywordIndex implements KeywordIndex {
  readonly id = "counting";
  private docs = new Map<string, string>();
  searches = 0;
  constructor(private readonly behaviour: "ok" | "fail" | "hang" = "ok") {}
  async upsert(docs: KeywordDocument[]): Promise<void> {
    for (const d of docs) this.docs.set(d.id, d.text);
  }
  async remove(ids: string[]): Promise<void> {
    for (const id of ids) this.docs.delete(id);
  }
  async size(): Promise<number> {
    return this.docs.size;
  }
  async search(query: string, options: KeywordSearchOptions): Promise<ScoredId[]> {
    this.searches++;
    if (this.behaviour === "fail") throw new Error("connect ECONNREFUSED 127.0.0.1:9200");
    if (this.behaviour === "hang") return new Promise(() => undefined);
    return [...this.docs]
      .filter(([id]) => !options.allowIds || options.allowIds.has(id))
      .map(([id, text]) => ({ id, score: termCount(text, query) }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, options.topK);
  }
}

const baseCaps: StoreCapabilities = {
  vectorSearch: true, nativeHybrid: false, fullText: false, metadataFilter: false, deleteByFilter: false,
  persistent: false, maxBatchSize: 1000,
};

/** An array-backed store; full text and a native hybrid (its own text-then-vector order) are optional. */
export class ArrayStore implements VectorStoreAdapter {
  readonly id = "array";
  readonly capabilities: StoreCapabilities;
  records: StoreRecord[] = [];
  calls: string[] = [];
  fullTextSearch?: (q: StoreQuery & { text: string }) => Promise<ScoredId[]>;
  hybridSearch?: (q: StoreQuery & { text: string; vector: Float32Array }) => Promise<ScoredId[]>;

  constructor(caps: Partial<StoreCapabilities> = {}, methods: { fullText?: boolean; hybrid?: boolean } = {}) {
    this.capabilities = Object.freeze({ ...baseCaps, ...caps });
    if (methods.fullText) {
      this.fullTextSearch = async (q) => {
        this.calls.push("fullText");
        return this.records
          .map((r) => ({ id: r.record.id, score: termCount(r.record.indexedText, q.text) }))
          .filter((r) => r.score > 0)
          .sort((a, b) => b.score - a.score)
          .slice(0, q.topK);
      };
    }
    if (methods.hybrid) {
      this.hybridSearch = async (q) => {
        this.calls.push("hybrid");
        return this.records
          .map((r) => ({ id: r.record.id, score: termCount(r.record.indexedText, q.text) * 10 + cosine(q.vector, r.vector) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, q.topK);
      };
    }
  }
  async open(): Promise<void> {}
  async upsert(records: StoreRecord[]): Promise<void> {
    this.records.push(...records);
  }
  async get(ids: string[]): Promise<ChunkRecord[]> {
    return this.records.filter((r) => ids.includes(r.record.id)).map((r) => r.record);
  }
  async deleteByIds(): Promise<void> {}
  async deleteBySource(): Promise<void> {}
  async *scan(): AsyncIterable<ChunkRecord> {
    for (const r of this.records) yield r.record;
  }
  async count(): Promise<number> {
    return this.records.length;
  }
  async vectorSearch(q: StoreQuery & { vector: Float32Array }): Promise<ScoredId[]> {
    this.calls.push("vector");
    return this.records
      .map((r) => ({ id: r.record.id, score: cosine(q.vector, r.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, q.topK);
  }
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
}

/** A chunk record with just the fields these tests read. */
export function record(id: string, text: string): ChunkRecord {
  return {
    id, sourcePath: "doc.md", chunkIndex: 0, content: text, start: 0, end: text.length, sectionId: id, sectionTitle: id,
    parentChain: [], chunkType: "content", tokens: 1, unitIds: [], context: "", indexedText: text, fileHash: "h", fileChunkCount: 4, fileType: "markdown",
    sectionAliases: [], definitions: [], crossReferences: [],
  };
}

/** Exact lookup over a fixed map of phrases to ids. */
export class MapExact {
  constructor(private readonly map: Record<string, string[]>) {}
  lookup(query: string, options?: { allowIds?: ReadonlySet<string> }): ScoredId[] {
    const out: ScoredId[] = [];
    for (const [needle, ids] of Object.entries(this.map)) {
      if (!query.includes(needle)) continue;
      for (const id of ids) if (!options?.allowIds || options.allowIds.has(id)) out.push({ id, score: 4 });
    }
    return out;
  }
}
