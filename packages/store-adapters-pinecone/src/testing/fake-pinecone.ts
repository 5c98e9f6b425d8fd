/* eslint-disable @typescript-eslint/no-explicit-any -- a wire stand-in: request bodies are arbitrary JSON, checked by the tests */
// A small in-memory stand-in for a Pinecone index host's data-plane REST API (docs.pinecone.io/reference,
// the version the SDK sends in X-Pinecone-Api-Version): POST /vectors/upsert, GET /vectors/fetch,
// POST /vectors/delete (ids, filter, deleteAll), POST /query (cosine, `$eq` / `$in` filters),
// POST /describe_index_stats and GET /vectors/list, per namespace. Requests are recorded with headers.
// Not Pinecone: it follows the documented shapes, nothing more (and it is immediately consistent).
import { RecordingHttpServer, cosineSimilarity, type RecordedHttpRequest } from "@hierdoc/core/testing";

export interface RecordedRequest extends Omit<RecordedHttpRequest, "query"> {
  /** Query parameters; repeated ones (`ids`) as arrays. */
  query: Record<string, string | string[]>;
}

interface Rec {
  id: string;
  values: number[];
  metadata?: Record<string, any>;
}

export class FakePinecone extends RecordingHttpServer<RecordedRequest> {
  /** namespace → id → record. */
  readonly namespaces = new Map<string, Map<string, Rec>>();
  dimension: number;

  constructor(dimension = 4) {
    super();
    this.dimension = dimension;
  }

  /** Repeated query parameters (and `ids` always) are recorded as arrays. */
  protected override describe(request: RecordedHttpRequest, url: URL): RecordedRequest {
    const query: Record<string, string | string[]> = {};
    for (const k of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(k);
      query[k] = all.length > 1 || k === "ids" ? all : all[0];
    }
    return { ...request, query };
  }

  protected override failureBody(): unknown {
    return { code: 13, message: "internal error", details: [] };
  }

  protected override respond(request: RecordedRequest): [number, unknown] {
    if (request.headers["api-key"] === undefined) return [401, { error: { code: "UNAUTHENTICATED", message: "Invalid API Key" }, status: 401 }];
    return this.route(request.method, request.path, request.query, request.body);
  }

  private ns(name: unknown): Map<string, Rec> {
    const key = typeof name === "string" ? name : "";
    let m = this.namespaces.get(key);
    if (m === undefined) this.namespaces.set(key, (m = new Map()));
    return m;
  }

  private route(method: string, path: string, query: Record<string, string | string[]>, body: any): [number, unknown] {
    if (path === "/vectors/upsert" && method === "POST") {
      for (const v of body.vectors as Rec[]) {
        if (v.values.length !== this.dimension) return [400, { code: 3, message: `Vector dimension ${v.values.length} does not match the dimension of the index ${this.dimension}`, details: [] }];
        if (v.values.every((x) => x === 0)) return [400, { code: 3, message: "Dense vectors must contain at least one non-zero value.", details: [] }];
      }
      const ns = this.ns(body.namespace);
      for (const v of body.vectors as Rec[]) ns.set(v.id, v);
      return [200, { upsertedCount: body.vectors.length }];
    }
    if (path === "/vectors/fetch" && method === "GET") {
      const ns = this.ns(query.namespace);
      const ids = (query.ids ?? []) as string[];
      const vectors = Object.fromEntries(ids.flatMap((id) => (ns.has(id) ? [[id, ns.get(id)]] : [])));
      return [200, { vectors, namespace: query.namespace ?? "", usage: { readUnits: 1 } }];
    }
    if (path === "/vectors/delete" && method === "POST") {
      const ns = this.ns(body.namespace);
      if (body.deleteAll) ns.clear();
      else if (body.ids !== undefined) for (const id of body.ids) ns.delete(id);
      else if (body.filter !== undefined) for (const [id, r] of ns) if (matches(r, body.filter)) ns.delete(id);
      return [200, {}];
    }
    if (path === "/query" && method === "POST") {
      if (body.vector.length !== this.dimension) return [400, { code: 3, message: `Vector dimension ${body.vector.length} does not match the dimension of the index ${this.dimension}`, details: [] }];
      const ns = this.ns(body.namespace);
      const matchesOut = [...ns.values()]
        .filter((r) => body.filter === undefined || matches(r, body.filter))
        .map((r) => ({ id: r.id, score: cosineSimilarity(r.values, body.vector), values: [], ...(body.includeMetadata ? { metadata: r.metadata } : {}) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, body.topK);
      return [200, { results: [], matches: matchesOut, namespace: body.namespace ?? "", usage: { readUnits: 5 } }];
    }
    if (path === "/describe_index_stats" && method === "POST") {
      const namespaces = Object.fromEntries([...this.namespaces].filter(([, m]) => m.size > 0).map(([k, m]) => [k, { vectorCount: m.size }]));
      const total = [...this.namespaces.values()].reduce((s, m) => s + m.size, 0);
      return [200, { namespaces, dimension: this.dimension, indexFullness: 0, totalVectorCount: total, metric: "cosine", vectorType: "dense" }];
    }
    if (path === "/vectors/list" && method === "GET") {
      const ns = this.ns(query.namespace);
      const ids = [...ns.keys()].filter((id) => id.startsWith(String(query.prefix ?? ""))).sort();
      const start = query.paginationToken === undefined ? 0 : Number(Buffer.from(String(query.paginationToken), "base64").toString());
      const limit = Number(query.limit ?? 100);
      const page = ids.slice(start, start + limit);
      const next = start + limit < ids.length ? Buffer.from(String(start + limit)).toString("base64") : undefined;
      return [200, { vectors: page.map((id) => ({ id })), ...(next === undefined ? {} : { pagination: { next } }), namespace: query.namespace ?? "", usage: { readUnits: 1 } }];
    }
    return [404, { code: 5, message: `Not Found: ${method} ${path}`, details: [] }];
  }
}

function matches(r: Rec, filter: Record<string, any>): boolean {
  for (const [key, cond] of Object.entries(filter)) {
    const v = r.metadata?.[key];
    if (cond.$eq !== undefined && v !== cond.$eq) return false;
    if (cond.$in !== undefined && !cond.$in.includes(v)) return false;
  }
  return true;
}
