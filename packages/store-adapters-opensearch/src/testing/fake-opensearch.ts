/* eslint-disable @typescript-eslint/no-explicit-any -- a wire stand-in: request bodies are arbitrary JSON, checked by the tests */
// A small in-memory stand-in for the OpenSearch REST API calls the store makes (docs.opensearch.org):
// GET /{index}/_mapping, HEAD /{index}, PUT /{index}, PUT /_search/pipeline/{id}, POST /_bulk (NDJSON), POST /{index}/_mget,
// POST /{index}/_delete_by_query, /{index}/_count and /{index}/_search with match_all, match (BM25), bool +
// terms filter, knn (cosinesimil score (1 + cos) / 2, filter inside the clause), search_after on a keyword
// sort, and `hybrid` run through a normalization-processor pipeline (min_max + weighted arithmetic_mean).
// Every request is recorded. Not OpenSearch: it follows the documented shapes, nothing more.
import { RecordingHttpServer, bm25Rank, cosineSimilarity, type RecordedHttpRequest, type ScriptedResponse } from "@hierdoc/core/testing";

/** A recorded request; for NDJSON (`_bulk`) the body is an array of the parsed lines. */
export type RecordedRequest = RecordedHttpRequest;

interface Doc {
  vector: number[];
  text: string;
  source_path: string;
  chunk_id: string;
  record: any;
}
interface Index {
  body: any;
  docs: Map<string, Doc>;
}
type Scored = { id: string; score: number };

const STOP = new Set(["a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with"]);

export class FakeOpenSearch extends RecordingHttpServer<RecordedRequest> {
  readonly indices = new Map<string, Index>();
  readonly pipelines = new Map<string, any>();
  /** Rewrites a `_bulk` answer (e.g. to inject per-item errors). */
  bulkOverride?: (items: any[]) => { errors: boolean; items: any[] } | undefined;
  protected override responseContentType = "application/json; charset=UTF-8";

  override reset(): void {
    super.reset();
    this.bulkOverride = undefined;
  }

  /** `_bulk` bodies are NDJSON: recorded as an array of the parsed lines. */
  protected override parseBody(text: string, url: URL): unknown {
    if (text === "") return undefined;
    return url.pathname.endsWith("/_bulk") ? text.split("\n").filter(Boolean).map((l) => JSON.parse(l)) : JSON.parse(text);
  }

  protected override failureBody(status: number): unknown {
    return { error: { type: "internal_server_error", reason: "boom" }, status };
  }

  protected override respond(request: RecordedRequest): [number, unknown] {
    return this.route(request.method, request.path, request.query, request.body);
  }

  protected override respondToError(err: unknown): ScriptedResponse {
    const status = (err as { status?: number }).status ?? 500;
    const reason = (err as Error).message;
    return { status, body: { error: { root_cause: [{ type: "illegal_argument_exception", reason }], type: "search_phase_execution_exception", reason: "all shards failed", caused_by: { type: "illegal_argument_exception", reason } }, status } };
  }

  private route(method: string, path: string, query: Record<string, string>, body: any): [number, unknown] {
    const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] === "_search" && parts[1] === "pipeline" && method === "PUT") {
      this.pipelines.set(parts[2], body);
      return [200, { acknowledged: true }];
    }
    if (parts[0] === "_bulk") return this.bulk(body);
    const name = parts[0];
    const index = this.indices.get(name);
    const missing: [number, unknown] = [404, { error: { root_cause: [{ type: "index_not_found_exception", reason: `no such index [${name}]` }], type: "index_not_found_exception", reason: `no such index [${name}]`, index: name }, status: 404 }];
    // HEAD /{index}: `indices.exists` (the keyword index of @hierdoc/keyword-search asks before creating its index).
    if (parts.length === 1 && method === "HEAD") return index === undefined ? [404, {}] : [200, {}];
    if (parts.length === 1 && method === "PUT") {
      if (index !== undefined) return [400, { error: { root_cause: [{ type: "resource_already_exists_exception", reason: `index [${name}/x] already exists` }], type: "resource_already_exists_exception", reason: `index [${name}/x] already exists` }, status: 400 }];
      this.indices.set(name, { body, docs: new Map() });
      return [200, { acknowledged: true, shards_acknowledged: true, index: name }];
    }
    if (index === undefined) return missing;
    const op = parts[1];
    if (op === "_mapping" && method === "GET") return [200, { [name]: { mappings: index.body.mappings } }];
    if (op === "_mget") {
      const excludes = (query._source_excludes ?? "").split(",");
      return [200, { docs: (body.ids as string[]).map((id) => {
        const d = index.docs.get(id);
        if (d === undefined) return { _index: name, _id: id, found: false };
        const source = Object.fromEntries(Object.entries(d).filter(([k]) => !excludes.includes(k)));
        return { _index: name, _id: id, _version: 1, _seq_no: 0, _primary_term: 1, found: true, _source: source };
      }) }];
    }
    if (op === "_count") return [200, { count: index.docs.size, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } }];
    if (op === "_delete_by_query") {
      let deleted = 0;
      for (const [id, d] of index.docs) {
        if (this.eval(index, body.query).some((s) => s.id === id) && d) {
          index.docs.delete(id);
          deleted++;
        }
      }
      return [200, { took: 3, timed_out: false, total: deleted, deleted, batches: 1, version_conflicts: 0, noops: 0, retries: { bulk: 0, search: 0 }, failures: [] }];
    }
    if (op === "_search") {
      let scored: Scored[];
      if (body.query?.hybrid !== undefined) {
        const pipeline = this.pipelines.get(query.search_pipeline ?? "");
        if (pipeline === undefined) return [400, { error: { type: "illegal_argument_exception", reason: `hybrid query requires search pipeline, got [${query.search_pipeline ?? ""}]` }, status: 400 }];
        scored = this.hybrid(index, body.query.hybrid.queries, pipeline);
      } else {
        scored = this.eval(index, body.query);
      }
      if (body.sort !== undefined) {
        scored.sort((a, b) => a.id.localeCompare(b.id));
        if (body.search_after !== undefined) scored = scored.filter((s) => s.id.localeCompare(String(body.search_after[0])) > 0);
      }
      const page = scored.slice(0, body.size ?? 10);
      const excludes: string[] = body._source?.excludes ?? [];
      return [200, {
        took: 2,
        timed_out: false,
        _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
        hits: {
          total: { value: scored.length, relation: "eq" },
          max_score: page[0]?.score ?? null,
          hits: page.map((s) => {
            const hit: any = { _index: name, _id: s.id, _score: body.sort !== undefined ? null : s.score };
            if (body._source !== false) hit._source = Object.fromEntries(Object.entries(index.docs.get(s.id)!).filter(([k]) => !excludes.includes(k)));
            if (body.sort !== undefined) hit.sort = [s.id];
            return hit;
          }),
        },
      }];
    }
    return [404, { error: `no handler for ${method} ${path}`, status: 404 }];
  }

  private bulk(lines: any[]): [number, unknown] {
    const items: any[] = [];
    for (let i = 0; i < lines.length; i++) {
      const [action, meta] = Object.entries(lines[i])[0] as [string, { _index: string; _id: string }];
      const index = this.indices.get(meta._index);
      if (action === "delete") {
        const existed = index?.docs.delete(meta._id) ?? false;
        items.push({ delete: { _index: meta._index, _id: meta._id, result: existed ? "deleted" : "not_found", status: existed ? 200 : 404 } });
        continue;
      }
      const doc = lines[++i] as Doc;
      // An index without a `vector` field (the keyword index's text + source_path mapping) takes any document.
      const dims = index?.body.mappings.properties.vector?.dimension;
      if (index === undefined) {
        items.push({ [action]: { _index: meta._index, _id: meta._id, status: 404, error: { type: "index_not_found_exception", reason: `no such index [${meta._index}]` } } });
      } else if (dims !== undefined && doc.vector?.length !== dims) {
        items.push({ [action]: { _index: meta._index, _id: meta._id, status: 400, error: { type: "mapper_parsing_exception", reason: `failed to parse field [vector] of type [knn_vector] in document with id '${meta._id}'. Preview of field's value: 'null'`, caused_by: { type: "illegal_argument_exception", reason: `Vector dimension mismatch. Expected: ${dims}, Given: ${doc.vector.length}` } } } });
      } else {
        const existed = index.docs.has(meta._id);
        index.docs.set(meta._id, doc);
        items.push({ [action]: { _index: meta._index, _id: meta._id, _version: 1, result: existed ? "updated" : "created", status: existed ? 200 : 201 } });
      }
    }
    const answer = this.bulkOverride?.(items) ?? { errors: items.some((it) => Object.values(it as Record<string, any>)[0].error !== undefined), items };
    return [200, { took: 5, ...answer }];
  }

  private hybrid(index: Index, queries: any[], pipeline: any): Scored[] {
    const proc = pipeline.phase_results_processors?.[0]?.["normalization-processor"];
    if (proc?.normalization?.technique !== "min_max" || proc?.combination?.technique !== "arithmetic_mean") throw new Error("fake supports min_max + arithmetic_mean only");
    const weights: number[] = proc.combination.parameters?.weights ?? queries.map(() => 1 / queries.length);
    const combined = new Map<string, number[]>();
    queries.forEach((q, qi) => {
      const results = this.eval(index, q).slice(0, q.knn !== undefined ? Object.values(q.knn as Record<string, any>)[0].k : 10_000);
      const max = Math.max(...results.map((r) => r.score));
      const min = Math.min(...results.map((r) => r.score));
      for (const r of results) {
        const norm = max === min ? 1 : (r.score - min) / (max - min);
        const arr = combined.get(r.id) ?? queries.map(() => 0);
        arr[qi] = norm;
        combined.set(r.id, arr);
      }
    });
    const wsum = weights.reduce((a, b) => a + b, 0);
    return [...combined].map(([id, s]) => ({ id, score: s.reduce((acc, v, i) => acc + v * weights[i], 0) / wsum })).sort((a, b) => b.score - a.score);
  }

  private eval(index: Index, q: any): Scored[] {
    const all = [...index.docs.entries()];
    if (q === undefined || q.match_all !== undefined) return all.map(([id]) => ({ id, score: 1 }));
    if (q.term !== undefined) {
      const [field, value] = Object.entries(q.term)[0] as [string, unknown];
      return all.filter(([, d]) => (d as any)[field] === value).map(([id]) => ({ id, score: 1 }));
    }
    if (q.terms !== undefined) {
      const [field, values] = Object.entries(q.terms)[0] as [string, unknown[]];
      return all.filter(([, d]) => values.includes((d as any)[field])).map(([id]) => ({ id, score: 1 }));
    }
    if (q.bool !== undefined) {
      let out = q.bool.must ? this.eval(index, q.bool.must[0]) : all.map(([id]) => ({ id, score: 0 }));
      for (const f of q.bool.filter ?? []) {
        const keep = new Set(this.eval(index, f).map((s) => s.id));
        out = out.filter((s) => keep.has(s.id));
      }
      return out;
    }
    if (q.knn !== undefined) {
      const { vector, k, filter } = q.knn.vector;
      const dims = index.body.mappings.properties.vector.dimension;
      if (vector.length !== dims) throw Object.assign(new Error(`Query vector has invalid dimension: ${vector.length}. Dimension should be: ${dims}`), { status: 400 });
      const keep = filter === undefined ? undefined : new Set(this.eval(index, filter).map((s) => s.id));
      return all
        .filter(([id]) => keep === undefined || keep.has(id))
        .map(([id, d]) => ({ id, score: (1 + cosineSimilarity(d.vector, vector)) / 2 }))
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    }
    if (q.match !== undefined) {
      return bm25Rank(all, String(q.match.text.query), ([, d]) => d.text, STOP).map(({ item: [id], score }) => ({ id, score }));
    }
    throw new Error(`fake does not support query ${JSON.stringify(q)}`);
  }
}
