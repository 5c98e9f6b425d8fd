/* eslint-disable @typescript-eslint/no-explicit-any -- a wire stand-in: documents and parameters are arbitrary JSON */
// The subset of the Cosmos DB NoSQL query language that the fake server runs: one `SELECT [VALUE] [TOP n] …
// FROM c [WHERE …] [ORDER BY [RANK] expr [ASC|DESC]]` over one container, with paths, literals, @parameters,
// arrays, objects, `=`, `AND`, and the functions hierdoc's queries and the SDK's rewritten queries use
// (VectorDistance/_VectorScore, FullTextScore/_FullTextScore, FullTextContains[Any|All], ARRAY_CONTAINS, COUNT,
// SUM, COUNTIF, _FullTextWordCount). Not a Cosmos: enough to execute what the real SDK sends, nothing more.
import { bm25Rank, cosineSimilarity, wordTokens } from "@hierdoc/core/testing";

export type Expr =
  | { t: "lit"; v: unknown }
  | { t: "param"; name: string }
  | { t: "path"; parts: string[] }
  | { t: "call"; fn: string; args: Expr[]; source: string }
  | { t: "array"; items: Expr[] }
  | { t: "object"; entries: Array<[string, Expr]> }
  | { t: "eq"; a: Expr; b: Expr }
  | { t: "and"; items: Expr[] }
  | { t: "star" };

/** A parsed SELECT statement. */
export interface SelectStatement {
  value: boolean;
  top?: number;
  items: Array<{ expr: Expr; alias?: string; source: string }>;
  where?: Expr;
  whereSource?: string;
  orderBy?: { rank: boolean; expr: Expr; source: string; desc?: boolean };
}

/** An error the fake answers with 400 BadRequest and the message, as the service does for a bad query. */
export class QueryError extends Error {}

const TOKEN = /\s*(?:(\{documentdb-[a-z-]+(?:-\d+)?\})|(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(@[A-Za-z_][\w-]*)|([A-Za-z_][\w]*)|(.))/giy;

interface Token {
  kind: "placeholder" | "num" | "str" | "param" | "word" | "sym";
  text: string;
  at: number;
}

function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (TOKEN.lastIndex < sql.length && (m = TOKEN.exec(sql)) !== null) {
    const kinds = ["placeholder", "num", "str", "param", "word", "sym"] as const;
    const i = [1, 2, 3, 4, 5, 6].find((g) => m![g] !== undefined);
    if (i === undefined) break;
    out.push({ kind: kinds[i - 1], text: m[i], at: m.index + m[0].length - m[i].length });
  }
  return out;
}

/**
 * Parses one SELECT statement.
 * @throws QueryError for anything outside the subset.
 */
export function parseSelect(sql: string): SelectStatement {
  const toks = tokenize(sql);
  let i = 0;
  const peek = (): Token | undefined => toks[i];
  const isWord = (w: string): boolean => peek()?.kind === "word" && peek()!.text.toUpperCase() === w;
  const take = (text?: string): Token => {
    const t = toks[i++];
    if (t === undefined || (text !== undefined && t.text.toUpperCase() !== text)) throw new QueryError(`Syntax error near ${t?.text ?? "end of query"}: expected ${text ?? "a token"}`);
    return t;
  };
  const sourceFrom = (start: number, end: number): string => sql.slice(toks[start].at, end < toks.length ? toks[end].at : sql.length).trim();

  function primary(): Expr {
    const t = take();
    if (t.kind === "num") return { t: "lit", v: Number(t.text) };
    if (t.kind === "str") return { t: "lit", v: t.text.startsWith('"') ? JSON.parse(t.text) : t.text.slice(1, -1).replace(/\\'/g, "'") };
    if (t.kind === "param") return { t: "param", name: t.text };
    if (t.kind === "placeholder") throw new QueryError(`unreplaced placeholder ${t.text}`);
    if (t.text === "*") return { t: "star" };
    if (t.text === "(") {
      const e = condition();
      take(")");
      return e;
    }
    if (t.text === "[") {
      const items: Expr[] = [];
      while (peek()?.text !== "]") {
        items.push(expr());
        if (peek()?.text === ",") take(",");
      }
      take("]");
      return { t: "array", items };
    }
    if (t.text === "{") {
      const entries: Array<[string, Expr]> = [];
      while (peek()?.text !== "}") {
        const key = take();
        if (key.kind !== "str") throw new QueryError(`object key must be a string near ${key.text}`);
        take(":");
        entries.push([JSON.parse(key.text), expr()]);
        if (peek()?.text === ",") take(",");
      }
      take("}");
      return { t: "object", entries };
    }
    if (t.kind === "word") {
      const upper = t.text.toUpperCase();
      if (upper === "TRUE" || upper === "FALSE") return { t: "lit", v: upper === "TRUE" };
      if (peek()?.text === "(") {
        take("(");
        const args: Expr[] = [];
        while (peek()?.text !== ")") {
          args.push(expr());
          if (peek()?.text === ",") take(",");
        }
        const close = take(")");
        return { t: "call", fn: t.text, args, source: sql.slice(t.at, close.at + 1) };
      }
      if (t.text !== "c") throw new QueryError(`Identifier '${t.text}' could not be resolved`);
      const parts: string[] = [];
      while (peek()?.text === ".") {
        take(".");
        parts.push(take().text);
      }
      return { t: "path", parts };
    }
    throw new QueryError(`Syntax error, incorrect syntax near '${t.text}'`);
  }
  function expr(): Expr {
    const a = primary();
    if (peek()?.text === "=") {
      take("=");
      return { t: "eq", a, b: primary() };
    }
    return a;
  }
  function condition(): Expr {
    const items = [expr()];
    while (isWord("AND")) {
      take("AND");
      items.push(expr());
    }
    return items.length === 1 ? items[0] : { t: "and", items };
  }

  take("SELECT");
  const st: SelectStatement = { value: false, items: [] };
  if (isWord("VALUE")) st.value = Boolean(take());
  if (isWord("TOP")) {
    take("TOP");
    st.top = Number(take().text);
  }
  for (;;) {
    const start = i;
    const e = expr();
    const end = i;
    let alias: string | undefined;
    if (isWord("AS")) {
      take("AS");
      alias = take().text;
    }
    st.items.push({ expr: e, alias, source: sourceFrom(start, end) });
    if (peek()?.text !== ",") break;
    take(",");
  }
  take("FROM");
  take("C");
  if (isWord("WHERE")) {
    take("WHERE");
    const start = i;
    st.where = condition();
    st.whereSource = sourceFrom(start, i);
  }
  if (isWord("ORDER")) {
    take("ORDER");
    take("BY");
    const rank = isWord("RANK") ? Boolean(take()) : false;
    const start = i;
    const e = expr();
    st.orderBy = { rank, expr: e, source: sourceFrom(start, i) };
    if (isWord("DESC") || isWord("ASC")) st.orderBy.desc = take().text.toUpperCase() === "DESC";
  }
  if (i < toks.length) throw new QueryError(`Syntax error, incorrect syntax near '${toks[i].text}'`);
  return st;
}

/** What expressions are evaluated against: the parameters and every document of the container (for BM25 statistics). */
export interface EvalContext {
  params: Map<string, unknown>;
  corpus: any[];
  /** Called with the statistics an SDK-rewritten `_FullTextScore` carries, so the server can check them. */
  onStatistics?: (terms: string[], documentCount: number, totalWordCount: number, hitCounts: number[]) => void;
}

const AGGREGATES = new Set(["COUNT", "SUM", "COUNTIF"]);

/** True when the expression contains an aggregate function. */
export function hasAggregate(e: Expr): boolean {
  if (e.t === "call") return AGGREGATES.has(e.fn.toUpperCase()) || e.args.some(hasAggregate);
  if (e.t === "array") return e.items.some(hasAggregate);
  if (e.t === "object") return e.entries.some(([, v]) => hasAggregate(v));
  return false;
}

function textTerms(args: Expr[], from: number, ctx: EvalContext, doc: any): string[] {
  return args.slice(from).flatMap((a) => {
    const v = evaluate(a, doc, ctx);
    return (Array.isArray(v) ? v : [v]).map((x) => String(x).toLowerCase());
  });
}

const bm25Cache = new WeakMap<any[], Map<string, Map<any, number>>>();

function bm25Score(doc: any, terms: string[], ctx: EvalContext): number {
  const byQuery = bm25Cache.get(ctx.corpus) ?? new Map<string, Map<any, number>>();
  bm25Cache.set(ctx.corpus, byQuery);
  const key = terms.join(" ");
  let scores = byQuery.get(key);
  if (scores === undefined) {
    scores = new Map(bm25Rank(ctx.corpus, key, (d) => String(d.text ?? "")).map(({ item, score }) => [item, score]));
    byQuery.set(key, scores);
  }
  return scores.get(doc) ?? 0;
}

/**
 * Value of `e` for one document (`docs` given: an aggregate over them).
 * @throws QueryError for an unknown function or parameter.
 */
export function evaluate(e: Expr, doc: any, ctx: EvalContext, docs?: any[]): unknown {
  switch (e.t) {
    case "lit":
      return e.v;
    case "star":
      return doc;
    case "param":
      if (!ctx.params.has(e.name)) throw new QueryError(`Parameter ${e.name} is not defined`);
      return ctx.params.get(e.name);
    case "path":
      return e.parts.reduce((v: any, p) => (v === undefined || v === null ? undefined : v[p]), doc);
    case "array":
      return e.items.map((x) => evaluate(x, doc, ctx, docs));
    case "object":
      return Object.fromEntries(e.entries.map(([k, v]) => [k, evaluate(v, doc, ctx, docs)]).filter(([, v]) => v !== undefined));
    case "eq":
      return JSON.stringify(evaluate(e.a, doc, ctx)) === JSON.stringify(evaluate(e.b, doc, ctx));
    case "and":
      return e.items.every((x) => evaluate(x, doc, ctx) === true);
  }
  const fn = e.fn.toUpperCase();
  const arg = (n: number): any => evaluate(e.args[n], doc, ctx);
  switch (fn) {
    case "COUNT":
      return (docs ?? []).length;
    case "SUM":
      return (docs ?? []).reduce((s, d) => s + Number(evaluate(e.args[0], d, ctx) ?? 0), 0);
    case "COUNTIF":
      return (docs ?? []).filter((d) => evaluate(e.args[0], d, ctx) === true).length;
    case "ARRAY_CONTAINS":
      return Array.isArray(arg(0)) && (arg(0) as unknown[]).some((x) => JSON.stringify(x) === JSON.stringify(arg(1)));
    case "VECTORDISTANCE":
    case "_VECTORSCORE": {
      const v = arg(0);
      return Array.isArray(v) ? cosineSimilarity(v, arg(1)) : undefined;
    }
    case "_FULLTEXTWORDCOUNT":
      return wordTokens(String(arg(0) ?? "")).length;
    case "FULLTEXTCONTAINS":
    case "FULLTEXTCONTAINSANY":
    case "FULLTEXTCONTAINSALL": {
      const words = new Set(wordTokens(String(arg(0) ?? "")));
      const terms = textTerms(e.args, 1, ctx, doc);
      return fn === "FULLTEXTCONTAINSALL" ? terms.every((t) => words.has(t)) : terms.some((t) => words.has(t));
    }
    case "FULLTEXTSCORE":
      return bm25Score(doc, textTerms(e.args, 1, ctx, doc), ctx);
    case "_FULLTEXTSCORE": {
      const terms = textTerms([e.args[1]], 0, ctx, doc);
      ctx.onStatistics?.(terms, Number(arg(2)), Number(arg(3)), (arg(4) as number[]) ?? []);
      return bm25Score(doc, terms, ctx);
    }
  }
  throw new QueryError(`Unknown function '${e.fn}'`);
}

/** Upper-cased function name of a call expression, `undefined` for anything else. */
export function callName(e: Expr): string | undefined {
  return e.t === "call" ? e.fn.toUpperCase() : undefined;
}
