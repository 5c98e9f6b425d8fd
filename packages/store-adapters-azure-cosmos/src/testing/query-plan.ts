// The query plan (PartitionedQueryExecutionInfo, version 2) the Cosmos DB gateway answers to a request with
// `x-ms-cosmos-is-query-plan-request: True`, for the query shapes the fake supports: an aggregate
// (`SELECT VALUE COUNT(1)`), a non-streaming `ORDER BY VectorDistance` with TOP, and `ORDER BY RANK` over
// FullTextScore or RRF(...) (a hybridSearchQueryInfo with a global-statistics query and one component query
// per ranked expression, with the `{documentdb-formattablehybridsearchquery-*}` placeholders the SDK fills).
import { callName, hasAggregate, QueryError, type Expr, type SelectStatement } from "./cosmos-sql.js";

/** The only partition key range of the fake's containers, as the plan's query range. */
export const FULL_RANGE = { min: "", max: "FF", isMinInclusive: true, isMaxInclusive: false };

/** True when the gateway cannot serve the query directly and the SDK must run it from a plan. */
export function needsPlan(st: SelectStatement): boolean {
  return st.top !== undefined || st.orderBy !== undefined || st.items.some((i) => hasAggregate(i.expr));
}

function queryInfo(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    distinctType: "None",
    top: null,
    offset: null,
    limit: null,
    orderBy: [],
    orderByExpressions: [],
    groupByExpressions: [],
    groupByAliases: [],
    aggregates: [],
    groupByAliasToAggregateType: {},
    rewrittenQuery: "",
    hasSelectValue: false,
    dCountInfo: null,
    hasNonStreamingOrderBy: false,
    ...overrides,
  };
}

function payloadObject(st: SelectStatement): string {
  if (st.items.length === 1 && st.items[0].expr.t === "star") return "c";
  const entries = st.items.map(({ expr, alias, source }) => {
    const key = alias ?? (expr.t === "path" ? expr.parts.at(-1) : undefined);
    if (key === undefined) throw new QueryError(`an expression without AS needs a name: ${source}`);
    return `${JSON.stringify(key)}: ${source}`;
  });
  return `{${entries.join(", ")}}`;
}

function filtered(st: SelectStatement): string {
  return st.whereSource === undefined ? "WHERE {documentdb-formattableorderbyquery-filter}" : `WHERE (${st.whereSource}) AND ({documentdb-formattableorderbyquery-filter})`;
}

function literalList(args: Expr[]): string[] {
  return args.map((a) => {
    if (a.t !== "lit" || typeof a.v !== "string") throw new QueryError("FullTextScore terms must be string literals");
    return a.v;
  });
}

/**
 * The plan of `st`.
 * @throws QueryError for a shape outside the supported subset.
 */
export function queryPlan(st: SelectStatement): Record<string, unknown> {
  const base = { partitionedQueryExecutionInfoVersion: 2, queryRanges: [FULL_RANGE] };
  const where = st.whereSource === undefined ? "" : `\nWHERE ${st.whereSource}`;
  if (st.items.some((i) => hasAggregate(i.expr))) {
    if (!st.value || st.items.length !== 1 || callName(st.items[0].expr) !== "COUNT") throw new QueryError("the fake plans only SELECT VALUE COUNT(...) aggregates");
    return { ...base, queryInfo: queryInfo({ aggregates: ["Count"], hasSelectValue: true, rewrittenQuery: `SELECT VALUE [{"item": ${st.items[0].source}}]\nFROM c${where}` }) };
  }
  const ob = st.orderBy;
  if (ob === undefined) {
    return { ...base, queryInfo: queryInfo({ top: st.top ?? null, rewrittenQuery: "" }) };
  }
  if (!ob.rank) {
    if (callName(ob.expr) !== "VECTORDISTANCE") throw new QueryError("the fake plans ORDER BY only over VectorDistance");
    if (st.top === undefined) throw new QueryError("a vector search query needs TOP");
    const rewrittenQuery = `SELECT TOP ${st.top} c._rid, [{"item": ${ob.source}}] AS orderByItems, ${payloadObject(st)} AS payload\nFROM c\n${filtered(st)}\nORDER BY ${ob.source}`;
    return {
      ...base,
      queryInfo: queryInfo({ top: st.top, orderBy: ["Descending"], orderByExpressions: [ob.source], rewrittenQuery, hasNonStreamingOrderBy: true }),
    };
  }
  const ranked = callName(ob.expr) === "RRF" ? (ob.expr as { args: Expr[] }).args : [ob.expr];
  const statistics: string[] = [];
  const components = ranked.map((e, i) => {
    const args = (e as { args?: Expr[] }).args ?? [];
    if (callName(e) === "FULLTEXTSCORE") {
      const terms = literalList(args.slice(1));
      statistics.push(`{"totalWordCount": SUM(_FullTextWordCount(c.text)), "hitCounts": [${terms.map((t) => `COUNTIF(FullTextContains(c.text, ${JSON.stringify(t)}))`).join(", ")}]}`);
      return `_FullTextScore(c.text, [${terms.map((t) => JSON.stringify(t)).join(", ")}], {documentdb-formattablehybridsearchquery-totaldocumentcount}, {documentdb-formattablehybridsearchquery-totalwordcount-${i}}, {documentdb-formattablehybridsearchquery-hitcountsarray-${i}})`;
    }
    if (callName(e) === "VECTORDISTANCE") return (e as { source: string }).source.replace(/^VectorDistance/i, "_VectorScore");
    throw new QueryError("ORDER BY RANK takes FullTextScore, VectorDistance or RRF of them");
  });
  if (st.top === undefined) throw new QueryError("ORDER BY RANK needs TOP");
  const componentTop = st.top * 12;
  const componentQueryInfos = components.map((expr) =>
    queryInfo({
      top: componentTop,
      orderBy: ["Descending"],
      orderByExpressions: [expr],
      rewrittenQuery: `SELECT TOP ${componentTop} c._rid, [{"item": ${expr}}] AS orderByItems, {"payload": ${payloadObject(st)}, "componentScores": [${components.join(", ")}]} AS payload\nFROM c\n${filtered(st)}\nORDER BY ${expr} DESC`,
      hasNonStreamingOrderBy: true,
    }),
  );
  return {
    ...base,
    hybridSearchQueryInfo: {
      globalStatisticsQuery: `SELECT COUNT(1) AS documentCount, [${statistics.join(", ")}] AS fullTextStatistics\nFROM c`,
      componentQueryInfos,
      componentWithoutPayloadQueryInfos: [],
      projectionQueryInfo: null,
      componentWeights: null,
      skip: null,
      take: st.top,
      requiresGlobalStatistics: statistics.length > 0,
    },
  };
}
