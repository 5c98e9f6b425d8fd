/* eslint-disable @typescript-eslint/no-explicit-any -- a wire stand-in: request bodies are arbitrary JSON, checked by the tests */
// A small in-memory stand-in for the Weaviate REST + GraphQL API calls the store makes (weaviate.io docs,
// v1.2x): GET /v1/meta, GET/POST /v1/schema, POST/DELETE /v1/batch/objects, and POST /v1/graphql with
// `Get` (nearVector, bm25, hybrid with alpha and relativeScoreFusion, where Equal/Or, limit, after) and
// `Aggregate { meta { count } }`. GraphQL documents are parsed with `graphql`, so the tests can assert the
// arguments the client sent. Not Weaviate: it follows the documented shapes, nothing more.
import { RecordingHttpServer, bm25Rank, cosineSimilarity, type RecordedHttpRequest, type ScriptedResponse } from "@hierdoc/core/testing";
import { Kind, parse, valueFromASTUntyped, type FieldNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";

export interface RecordedRequest extends RecordedHttpRequest {
  /** For /v1/graphql: the root field (Get / Aggregate), class and its arguments as plain values. */
  graphql?: { root: string; className: string; args: Record<string, any>; fields: string[] };
}

interface Obj {
  id: string;
  vector: number[];
  properties: Record<string, any>;
}
interface Klass {
  schema: any;
  objects: Map<string, Obj>;
}

export class FakeWeaviate extends RecordingHttpServer<RecordedRequest> {
  readonly classes = new Map<string, Klass>();
  /** Rewrites the batch import answer (e.g. to inject per-object errors). */
  batchOverride?: (results: any[]) => any[] | undefined;
  /** Largest number of objects one batch delete removes (Weaviate's QUERY_MAXIMUM_RESULTS). */
  deleteLimit = 10_000;

  override reset(): void {
    super.reset();
    this.batchOverride = undefined;
    this.deleteLimit = 10_000;
  }

  /** Recorded requests other than the client's `/v1/meta` version probes. */
  calls(): RecordedRequest[] {
    return this.requests.filter((r) => r.path !== "/v1/meta");
  }

  protected override describe(request: RecordedHttpRequest): RecordedRequest {
    return request.path === "/v1/graphql" ? { ...request, graphql: describeGraphql(request.body.query) } : request;
  }

  /** The client's version probe is answered even while hanging or failing. */
  protected override intercept(request: RecordedRequest): ScriptedResponse | undefined {
    return request.path === "/v1/meta" ? { status: 200, body: { hostname: "http://[::]:8080", version: "1.25.0", modules: {} } } : undefined;
  }

  protected override failureBody(): unknown {
    return { error: [{ message: "internal error" }] };
  }

  protected override respond(request: RecordedRequest): [number, unknown] {
    return this.route(request);
  }

  protected override respondToError(err: unknown): ScriptedResponse {
    return { status: 200, body: { data: null, errors: [{ message: (err as Error).message, locations: [{ line: 1, column: 1 }] }] } };
  }

  private route(rec: RecordedRequest): [number, unknown] {
    const { method, path, body } = rec;
    const schema = /^\/v1\/schema\/([^/]+)$/.exec(path);
    if (schema !== null && method === "GET") {
      const k = this.classes.get(schema[1]);
      return k === undefined ? [404, undefined] : [200, k.schema];
    }
    if (path === "/v1/schema" && method === "POST") {
      if (this.classes.has(body.class)) return [422, { error: [{ message: `class name "${body.class}" already exists` }] }];
      this.classes.set(body.class, { schema: { ...body, shardingConfig: { desiredCount: 1 }, replicationConfig: { factor: 1 } }, objects: new Map() });
      return [200, body];
    }
    if (path === "/v1/batch/objects" && method === "POST") {
      const results = (body.objects as any[]).map((o) => {
        const k = this.classes.get(o.class);
        const first = k?.objects.values().next().value as Obj | undefined;
        const out: any = { class: o.class, id: o.id, properties: o.properties, creationTimeUnix: 1, lastUpdateTimeUnix: 1, result: {} };
        if (k === undefined) out.result = { errors: { error: [{ message: `class "${o.class}" not found in schema` }] } };
        else if (first !== undefined && first.vector.length !== o.vector.length) {
          out.result = { errors: { error: [{ message: `insert to vector index: new node has a vector with length ${o.vector.length}. Existing nodes have vectors with length ${first.vector.length}` }] } };
        } else k.objects.set(o.id, { id: o.id, vector: o.vector, properties: o.properties });
        return out;
      });
      return [200, this.batchOverride?.(results) ?? results];
    }
    if (path === "/v1/batch/objects" && method === "DELETE") {
      const k = this.classes.get(body.match.class);
      if (k === undefined) return [422, { error: [{ message: `class ${body.match.class} not found` }] }];
      const matched = [...k.objects.values()].filter((o) => matches(o, body.match.where));
      const removed = matched.slice(0, this.deleteLimit);
      for (const o of removed) k.objects.delete(o.id);
      return [200, { match: body.match, output: body.output, dryRun: body.dryRun ?? false, results: { matches: matched.length, limit: this.deleteLimit, successful: removed.length, failed: 0 } }];
    }
    if (path === "/v1/graphql" && method === "POST") return [200, this.graphql(rec.graphql!)];
    return [404, { error: [{ message: `no route ${method} ${path}` }] }];
  }

  private graphql(q: NonNullable<RecordedRequest["graphql"]>): unknown {
    const k = this.classes.get(q.className);
    if (k === undefined) throw new Error(`Cannot query field "${q.className}" on type "Get${q.root}Obj".`);
    let objs = [...k.objects.values()].filter((o) => q.args.where === undefined || matches(o, q.args.where));
    if (q.root === "Aggregate") return { data: { Aggregate: { [q.className]: [{ meta: { count: objs.length } }] } } };
    let scored: Array<{ o: Obj; score?: number; distance?: number }>;
    const dims = k.objects.values().next().value?.vector.length;
    const near = (vector: number[]): Array<{ o: Obj; distance: number }> => {
      if (dims !== undefined && vector.length !== dims) throw new Error(`explorer: get class: vector search: object vector search at index ${q.className.toLowerCase()}: vector lengths don't match: ${dims} vs ${vector.length}`);
      return objs.map((o) => ({ o, distance: 1 - cosineSimilarity(o.vector, vector) })).sort((a, b) => a.distance - b.distance);
    };
    if (q.args.nearVector !== undefined) scored = near(q.args.nearVector.vector);
    else if (q.args.bm25 !== undefined) scored = bm25(objs, q.args.bm25.query);
    else if (q.args.hybrid !== undefined) {
      const h = q.args.hybrid;
      if (h.fusionType !== "relativeScoreFusion") throw new Error("fake supports relativeScoreFusion only");
      const alpha = h.alpha ?? 0.75;
      const vec = near(h.vector).map((r) => ({ o: r.o, score: 1 - r.distance }));
      const kw = bm25(objs, h.query);
      const fused = new Map<string, { o: Obj; score: number }>();
      for (const [leg, weight] of [[vec, alpha], [kw, 1 - alpha]] as const) {
        const max = Math.max(...leg.map((r) => r.score));
        const min = Math.min(...leg.map((r) => r.score));
        for (const r of leg) {
          const e = fused.get(r.o.id) ?? { o: r.o, score: 0 };
          e.score += weight * (max === min ? 1 : (r.score - min) / (max - min));
          fused.set(r.o.id, e);
        }
      }
      scored = [...fused.values()].sort((a, b) => b.score - a.score);
    } else {
      objs = objs.sort((a, b) => a.id.localeCompare(b.id));
      if (q.args.after !== undefined) objs = objs.filter((o) => o.id.localeCompare(String(q.args.after)) > 0);
      scored = objs.map((o) => ({ o }));
    }
    const rows = scored.slice(0, q.args.limit ?? 10).map(({ o, score, distance }) => {
      const row: any = {};
      for (const f of q.fields) if (f !== "_additional") row[f] = o.properties[f] ?? null;
      if (q.fields.includes("_additional")) row._additional = { id: o.id, score: score === undefined ? null : String(score), distance: distance ?? null };
      return row;
    });
    return { data: { Get: { [q.className]: rows } } };
  }
}

function describeGraphql(query: string): RecordedRequest["graphql"] {
  const doc = parse(query);
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
  const root = op.selectionSet.selections[0] as FieldNode;
  const cls = (root.selectionSet as SelectionSetNode).selections[0] as FieldNode;
  const args = Object.fromEntries((cls.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)]));
  const fields = (cls.selectionSet?.selections ?? []).map((s) => (s as FieldNode).name.value);
  return { root: root.name.value, className: cls.name.value, args, fields };
}

function matches(o: Obj, where: any): boolean {
  if (where === undefined) return true;
  if (where.operator === "Or") return where.operands.some((w: any) => matches(o, w));
  if (where.operator === "And") return where.operands.every((w: any) => matches(o, w));
  if (where.operator === "Equal") return o.properties[where.path[0]] === (where.valueText ?? where.valueString);
  throw new Error(`fake does not support where operator ${where.operator}`);
}

function bm25(objs: Obj[], query: string): Array<{ o: Obj; score: number }> {
  return bm25Rank(objs, query, (o) => String(o.properties.text ?? "")).map(({ item, score }) => ({ o: item, score }));
}
