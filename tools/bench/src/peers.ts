import { create, insertMultiple, search as oramaSearch, type AnyOrama } from "@orama/orama";
import { Embeddings } from "@langchain/core/embeddings";
import { Document } from "@langchain/core/documents";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import type { Embedder } from "@hierdoc/core";

/** A chunk as given to every system: id, the text hierdoc indexed (context + content) and its GloVe vector. */
export interface PoolChunk {
  id: string;
  text: string;
  vector: Float32Array;
}

/** A peer retrieval mode. */
export type PeerMode = "fulltext" | "vector" | "hybrid";

/** A built peer index that answers top-k queries with chunk ids. */
export interface PeerIndex {
  name: string;
  search(query: string, mode: PeerMode, topK: number): Promise<string[]>;
}

/**
 * Orama (full text BM25, vector, hybrid) over the pool; vectors are the pool's GloVe vectors and queries
 * are embedded with the same embedder. `similarity: 0` so vector mode always returns k hits.
 */
export async function buildOrama(chunks: readonly PoolChunk[], embedder: Embedder): Promise<PeerIndex> {
  const db: AnyOrama = create({ schema: { text: "string", embedding: `vector[${embedder.dimensions}]` } as const });
  const BATCH = 5000;
  for (let i = 0; i < chunks.length; i += BATCH) {
    const batch = chunks.slice(i, i + BATCH).map((c) => ({ id: c.id, text: c.text, embedding: Array.from(c.vector) }));
    await insertMultiple(db, batch, BATCH);
  }
  return {
    name: "Orama",
    async search(query, mode, topK) {
      const params: Record<string, unknown> = { limit: topK };
      if (mode !== "fulltext") {
        const v = await embedder.embedQuery(query);
        params.vector = { value: Array.from(v), property: "embedding" };
        params.similarity = mode === "vector" ? 0 : 0;
      }
      if (mode !== "vector") params.term = query;
      params.mode = mode;
      const res = await oramaSearch(db, params as never);
      return res.hits.map((h) => String(h.id));
    },
  };
}

/** Our GloVe embedder as a LangChain `Embeddings`. */
export class HierdocLangChainEmbeddings extends Embeddings {
  constructor(private readonly embedder: Embedder) {
    super({});
  }
  /** Embeds documents with the wrapped embedder. */
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return (await this.embedder.embedDocuments(texts)).map((v) => Array.from(v));
  }
  /** Embeds a query with the wrapped embedder. */
  async embedQuery(text: string): Promise<number[]> {
    return Array.from(await this.embedder.embedQuery(text));
  }
}

/**
 * LangChain.js `MemoryVectorStore` with the GloVe embedder wrapped as LangChain Embeddings. With
 * `embed: true` the store embeds the texts itself (addDocuments); otherwise the pool's vectors (the same
 * numbers) are added with addVectors, which is faster to build.
 */
export async function buildLangChain(chunks: readonly PoolChunk[], embedder: Embedder, embed: boolean): Promise<PeerIndex> {
  const store = new MemoryVectorStore(new HierdocLangChainEmbeddings(embedder));
  const docs = chunks.map((c) => new Document({ pageContent: c.text, metadata: { id: c.id } }));
  const BATCH = 5000;
  for (let i = 0; i < chunks.length; i += BATCH) {
    if (embed) await store.addDocuments(docs.slice(i, i + BATCH));
    else await store.addVectors(chunks.slice(i, i + BATCH).map((c) => Array.from(c.vector)), docs.slice(i, i + BATCH));
  }
  return {
    name: "LangChain MemoryVectorStore",
    async search(query, _mode, topK) {
      const res = await store.similaritySearch(query, topK);
      return res.map((d) => String(d.metadata.id));
    },
  };
}
