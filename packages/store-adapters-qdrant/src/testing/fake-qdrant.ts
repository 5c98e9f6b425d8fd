/* eslint-disable @typescript-eslint/no-explicit-any -- a wire stand-in: request bodies are arbitrary JSON, checked by the tests */
// A small in-memory stand-in for Qdrant's REST API (api.qdrant.tech, v1.16+), enough for the adapter:
// collections (create with named dense + sparse vectors and metadata, get, delete), payload index,
// points upsert / retrieve / delete (ids or filter) / scroll / count, and the Query API (dense, sparse with
// the IDF modifier, prefetch + RRF fusion). Every request is recorded for assertions. Not a Qdrant: it
// follows the documented request and response shapes, nothing more.
import { RecordingHttpServer, type RecordedHttpRequest, type ScriptedResponse } from "@hierdoc/core/testing";

export type RecordedRequest = RecordedHttpRequest;

interface Sparse {
  indices: number[];
  values: number[];
}
interface Point {
  id: string | number;
  dense: number[];
  sparse?: Sparse;
  payload: Record<string, any>;
}
interface Collection {
  size: number;
  distance: string;
  config: any;
  points: Map<string, Point>;
}
type Filter = { must?: Array<{ key: string; match: { any?: unknown[]; value?: unknown } }> } | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Qdrant's default RRF constant. */
const RRF_K = 2;

export class FakeQdrant extends RecordingHttpServer<RecordedRequest> {
  readonly collections = new Map<string, Collection>();

  protected override failureBody(): unknown {
    return { status: { error: "Service internal error" }, time: 0 };
  }

  protected override respond(request: RecordedRequest): [number, unknown] {
    const [status, result] = this.route(request.method, request.path, request.body);
    return [status, status < 300 ? { result, status: "ok", time: 0.0002 } : { status: { error: result }, time: 0.0001 }];
  }

  protected override respondToError(err: unknown): ScriptedResponse {
    return { status: 500, body: { status: { error: String(err) }, time: 0 } };
  }

  private route(method: string, path: string, body: any): [number, unknown] {
    const m = /^\/collections\/([^/]+)(\/.*)?$/.exec(path);
    if (m === null) return [404, `Not found: ${path}`];
    const name = decodeURIComponent(m[1]);
    const rest = m[2] ?? "";
    const col = this.collections.get(name);
    if (rest === "" && method === "PUT") {
      if (col !== undefined) return [409, `Wrong input: Collection \`${name}\` already exists!`];
      const dense = body?.vectors?.dense;
      if (typeof dense?.size !== "number") return [400, "Wrong input: vectors config required"];
      this.collections.set(name, {
        size: dense.size,
        distance: dense.distance,
        points: new Map(),
        config: {
          params: { vectors: body.vectors, sparse_vectors: body.sparse_vectors ?? null, shard_number: 1, replication_factor: 1, write_consistency_factor: 1, on_disk_payload: true },
          hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
          optimizer_config: { deleted_threshold: 0.2, vacuum_min_vector_number: 1000, default_segment_number: 0, max_segment_size: null, memmap_threshold: null, indexing_threshold: 20000, flush_interval_sec: 5, max_optimization_threads: null },
          wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
          quantization_config: null,
          metadata: body.metadata ?? undefined,
        },
      });
      return [200, true];
    }
    if (col === undefined) return [404, `Not found: Collection \`${name}\` doesn't exist!`];
    if (rest === "" && method === "GET") {
      return [200, { status: "green", optimizer_status: "ok", indexed_vectors_count: 0, points_count: col.points.size, segments_count: 2, config: col.config, payload_schema: {} }];
    }
    if (rest === "" && method === "DELETE") {
      this.collections.delete(name);
      return [200, true];
    }
    if (rest === "/index" && method === "PUT") return [200, { operation_id: 1, status: "completed" }];
    if (rest === "/points" && method === "PUT") {
      for (const p of body.points as Array<{ id: string | number; vector: Record<string, any>; payload: any }>) {
        if (!(typeof p.id === "number" || UUID.test(String(p.id)))) return [400, `Format error in JSON body: value ${String(p.id)} is not a valid point ID, valid values are either an unsigned integer or a UUID`];
        const dense = p.vector?.dense as number[] | undefined;
        if (!Array.isArray(dense) || dense.length !== col.size) return [400, `Wrong input: Vector dimension error: expected dim: ${col.size}, got ${dense?.length ?? 0}`];
        const sparse = p.vector?.text as Sparse | undefined;
        if (sparse !== undefined && new Set(sparse.indices).size !== sparse.indices.length) return [400, "Validation error: indices must be unique"];
      }
      for (const p of body.points) col.points.set(String(p.id), { id: p.id, dense: normalize(p.vector.dense), sparse: p.vector.text, payload: p.payload ?? {} });
      return [200, { operation_id: 7, status: "completed" }];
    }
    if (rest === "/points" && method === "POST") {
      return [200, (body.ids as Array<string | number>).flatMap((id) => {
        const p = col.points.get(String(id));
        return p === undefined ? [] : [{ id: p.id, payload: body.with_payload ? p.payload : null, vector: null, shard_key: null, order_value: null }];
      })];
    }
    if (rest === "/points/delete" && method === "POST") {
      if (body.points !== undefined) for (const id of body.points) col.points.delete(String(id));
      else for (const [k, p] of col.points) if (matches(p, body.filter)) col.points.delete(k);
      return [200, { operation_id: 8, status: "completed" }];
    }
    if (rest === "/points/count" && method === "POST") {
      return [200, { count: [...col.points.values()].filter((p) => matches(p, body?.filter)).length }];
    }
    if (rest === "/points/scroll" && method === "POST") {
      const sorted = [...col.points.values()].sort((a, b) => String(a.id).localeCompare(String(b.id)));
      const start = body.offset === undefined || body.offset === null ? 0 : sorted.findIndex((p) => String(p.id) === String(body.offset));
      const limit = body.limit ?? 10;
      const page = sorted.slice(Math.max(0, start), Math.max(0, start) + limit);
      const next = sorted[Math.max(0, start) + limit];
      return [200, { points: page.map((p) => ({ id: p.id, payload: p.payload, vector: null })), next_page_offset: next === undefined ? null : next.id }];
    }
    if (rest === "/points/query" && method === "POST") {
      const points = this.query(col, body).slice(0, body.limit ?? 10);
      const sel = body.with_payload;
      return [200, { points: points.map(({ p, score }) => ({ id: p.id, version: 3, score, payload: selectPayload(p.payload, sel) })) }];
    }
    return [404, `Not found: ${method} ${path}`];
  }

  private query(col: Collection, q: any): Array<{ p: Point; score: number }> {
    const candidates = [...col.points.values()].filter((p) => matches(p, q.filter));
    if (q.prefetch !== undefined) {
      const lists = (Array.isArray(q.prefetch) ? q.prefetch : [q.prefetch]).map((pf: any) => this.query(col, pf).slice(0, pf.limit ?? 10));
      if (q.query?.fusion !== "rrf") throw new Error(`fake supports only rrf fusion, got ${JSON.stringify(q.query)}`);
      const fused = new Map<string, { p: Point; score: number }>();
      for (const list of lists) {
        list.forEach(({ p }: { p: Point }, rank: number) => {
          const e = fused.get(String(p.id)) ?? { p, score: 0 };
          e.score += 1 / (RRF_K + rank + 1);
          fused.set(String(p.id), e);
        });
      }
      return [...fused.values()].filter(({ p }) => matches(p, q.filter)).sort((a, b) => b.score - a.score);
    }
    if (Array.isArray(q.query)) {
      if (q.using !== "dense") throw new Error(`unknown dense vector ${q.using}`);
      if (q.query.length !== col.size) throw new Error(`Wrong input: Vector dimension error: expected dim: ${col.size}, got ${q.query.length}`);
      const v = normalize(q.query);
      return candidates.map((p) => ({ p, score: dot(p.dense, v) })).sort((a, b) => b.score - a.score);
    }
    if (Array.isArray(q.query?.indices)) {
      const n = col.points.size;
      const df = new Map<number, number>();
      for (const p of col.points.values()) for (const i of p.sparse?.indices ?? []) df.set(i, (df.get(i) ?? 0) + 1);
      const idf = (i: number): number => Math.log(1 + (n - (df.get(i) ?? 0) + 0.5) / ((df.get(i) ?? 0) + 0.5));
      const scored = candidates.flatMap((p) => {
        let s = 0;
        let overlap = false;
        q.query.indices.forEach((i: number, j: number) => {
          const k = p.sparse?.indices.indexOf(i) ?? -1;
          if (k >= 0) {
            overlap = true;
            s += q.query.values[j] * p.sparse!.values[k] * idf(i);
          }
        });
        return overlap ? [{ p, score: s }] : [];
      });
      return scored.sort((a, b) => b.score - a.score);
    }
    throw new Error(`unsupported query ${JSON.stringify(q.query)}`);
  }
}

function matches(p: Point, filter: Filter): boolean {
  for (const c of filter?.must ?? []) {
    const v = p.payload[c.key];
    if (c.match.any !== undefined && !c.match.any.includes(v)) return false;
    if (c.match.value !== undefined && c.match.value !== v) return false;
  }
  return true;
}

function selectPayload(payload: Record<string, unknown>, sel: unknown): Record<string, unknown> | null {
  if (sel === true) return payload;
  if (Array.isArray(sel)) return Object.fromEntries(sel.map((k: string) => [k, payload[k]]));
  return null;
}

function normalize(v: number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return n === 0 ? v : v.map((x) => x / n);
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
