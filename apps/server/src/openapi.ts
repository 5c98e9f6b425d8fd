import { z } from "zod";
import { requestSchemas } from "./schemas.js";
import type { ServerLimits } from "./types.js";

type Json = Record<string, unknown>;

const str = { type: "string" };
const int = { type: "integer" };
const num = { type: "number" };
const strArr = { type: "array", items: str };
const nullable = (type: string) => ({ type: [type, "null"] });
/** The `index` object of `/health` (see the README's "Reload"). */
const indexState = {
  type: "object",
  description: "The served index state; only `watching` when the server does not reload",
  properties: {
    watching: { type: "boolean" },
    loaded_at: str,
    updated_at: nullable("string"),
    reloads: int,
    reloading: { type: "boolean" },
    waiting_for_lock: nullable("integer"),
    last_reload: { type: ["object", "null"], properties: { at: str, reason: str, ms: int, chunks_before: int, chunks_after: int } },
    last_error: nullable("string"),
  },
};
const nullableStr = { type: ["string", "null"] };

const CrossReference: Json = {
  type: "object",
  properties: { text: str, target_section_id: nullableStr, external: { type: "boolean" }, cited_document: nullableStr, target_source_path: str },
  required: ["text", "target_section_id", "external"],
};
const Definition: Json = {
  type: "object",
  properties: { term: str, definition_text: str, source_section: str, source_path: str, chunk_id: str },
  required: ["term", "definition_text", "source_section"],
};
const Result: Json = {
  type: "object",
  description: "One search result (DESIGN.md RESULT; the same as `hierdoc search --json`)",
  properties: {
    id: str, rank: int, score: num, content: str, context: str, source_path: str, start: int, end: int,
    section_id: str, section_title: str, parent_chain: strArr,
    chunk_type: { type: "string", enum: ["definition", "requirement", "content", "header"] },
    scores: { type: "object", additionalProperties: { type: ["number", "null"] } },
    ranks: { type: "object", additionalProperties: { type: ["integer", "null"] } },
    definitions: { type: "array", items: { $ref: "#/components/schemas/Definition" } },
    cross_references: { type: "array", items: { $ref: "#/components/schemas/CrossReference" } },
  },
  required: ["id", "rank", "score", "content", "source_path", "start", "end", "section_id", "parent_chain", "chunk_type", "scores", "definitions", "cross_references"],
};
const Chunk: Json = {
  type: "object",
  properties: {
    id: str, content: str, context: str, source_path: str, start: int, end: int, section_id: str, section_title: str,
    aliases: strArr, unit_ids: strArr, parent_chain: strArr, chunk_type: str, tokens: int,
    definitions: { type: "array", items: { $ref: "#/components/schemas/Definition" } },
    cross_references: { type: "array", items: { $ref: "#/components/schemas/CrossReference" } },
  },
  required: ["id", "content", "source_path", "start", "end", "section_id", "parent_chain", "chunk_type"],
};
const DocumentSummary: Json = {
  type: "object",
  properties: { source_path: str, title: str, chunks: int, sections: int, first_section_id: nullableStr },
  required: ["source_path", "title", "chunks", "sections"],
};
const OutlineSection: Json = {
  type: "object",
  properties: { section_id: str, section_title: str, parent_chain: strArr, chunk_type: str, chunks: int, start: int },
  required: ["section_id", "section_title", "parent_chain", "chunk_type", "chunks", "start"],
};
const ErrorBody: Json = {
  type: "object",
  properties: { error: { type: "object", properties: { code: str, message: str }, required: ["code", "message"] } },
  required: ["error"],
};

function json(schema: Json, description: string): Json {
  return { description, content: { "application/json": { schema } } };
}
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const err = (description: string): Json => json(ref("Error"), description);
const common = { "429": err("Too many concurrent requests from this client"), "503": err("Timed out or shutting down") };

function requestSchema(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" }) as Json;
  delete out.$schema;
  return out;
}

/** The OpenAPI 3.1 document of the HTTP API (served at `GET /openapi.json`), for the given limits. */
export function openApiDocument(limits: ServerLimits, serverUrl?: string): Json {
  const schemas = requestSchemas(limits);
  const pathParam = (name: string, description: string) => ({ name, in: "path", required: true, description, schema: { type: "string", minLength: 1, maxLength: limits.queryChars } });
  return {
    openapi: "3.1.0",
    info: { title: "hierdoc", version: "0.1.0", description: "Retrieval over long structured documents: search, sections, definitions, cross-references." },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        SearchRequest: requestSchema(schemas.search),
        IngestRequest: requestSchema(schemas.ingest),
        Result, Chunk, Definition, CrossReference, DocumentSummary, OutlineSection, Error: ErrorBody,
      },
    },
    paths: {
      "/search": {
        post: {
          operationId: "search",
          summary: "Search the index",
          requestBody: { required: true, content: { "application/json": { schema: ref("SearchRequest") } } },
          responses: {
            "200": json({ type: "object", properties: { query: str, mode: str, route: str, results: { type: "array", items: ref("Result") }, warnings: strArr, timings_ms: { type: "object" } }, required: ["query", "mode", "results"] }, "Ranked results"),
            "400": err("Invalid body (bad JSON, empty query, top_k out of range, unknown mode or field)"),
            "413": err(`Body larger than ${limits.bodyBytes} bytes`),
            ...common,
          },
        },
      },
      "/sections/{id}": {
        get: {
          operationId: "getSection",
          summary: "The chunks of a section, by id or alias",
          parameters: [pathParam("id", "Section id or alias, URL-encoded (\"Article%2017\")")],
          responses: { "200": json({ type: "object", properties: { query: str, found: { type: "boolean" }, chunks: { type: "array", items: ref("Chunk") } } }, "The section"), "404": err("No such section"), ...common },
        },
      },
      "/definitions/{term}": {
        get: {
          operationId: "lookupDefinition",
          summary: "How the documents define a term",
          parameters: [pathParam("term", "The term, URL-encoded")],
          responses: { "200": json({ type: "object", properties: { term: str, found: { type: "boolean" }, definitions: { type: "array", items: ref("Definition") } } }, "Definitions"), "404": err("Not a defined term"), ...common },
        },
      },
      "/refs/{id}": {
        get: {
          operationId: "getReferences",
          summary: "Outgoing and incoming cross-references of a section",
          parameters: [pathParam("id", "Section id or alias, URL-encoded")],
          responses: {
            "200": json({ type: "object", properties: { query: str, section_id: str, outgoing: { type: "array", items: ref("CrossReference") }, incoming: { type: "array", items: { type: "object", properties: { from_section_id: str, source_path: str, text: str } } } } }, "References"),
            "404": err("No such section"),
            ...common,
          },
        },
      },
      "/definitions": {
        get: {
          operationId: "listDefinitions",
          summary: "Every defined term of the corpus, sorted by term",
          responses: { "200": json({ type: "object", properties: { count: int, definitions: { type: "array", items: ref("Definition") } } }, "Definitions"), ...common },
        },
      },
      "/documents": {
        get: {
          operationId: "listDocuments",
          summary: "The indexed documents (title, section and chunk counts, first section)",
          responses: { "200": json({ type: "object", properties: { documents: { type: "array", items: ref("DocumentSummary") } } }, "Documents"), ...common },
        },
      },
      "/outline": {
        get: {
          operationId: "getOutline",
          summary: "A document's sections in order, with their heading chains",
          parameters: [{ name: "source", in: "query", required: true, description: "The document's source_path (as in results)", schema: { type: "string", minLength: 1, maxLength: limits.queryChars } }],
          responses: {
            "200": json({ type: "object", properties: { source_path: str, title: str, chunks: int, first_section_id: nullableStr, sections: { type: "array", items: ref("OutlineSection") } } }, "Outline"),
            "400": err("Missing or too long `source`"),
            "404": err("No such document"),
            ...common,
          },
        },
      },
      "/stats": {
        get: {
          operationId: "stats",
          summary: "What the index holds (as `hierdoc stats`, snake_case) and its documents",
          responses: {
            "200": json({ type: "object", properties: { files: int, chunks: int, definitions: int, keyword_docs: int, embedder: str, dimensions: int, store: str, capabilities: { type: "object" }, documents: { type: "array", items: ref("DocumentSummary") } } }, "Statistics"),
            ...common,
          },
        },
      },
      "/": {
        get: {
          operationId: "searchPage",
          summary: "The search page (HTML; also served at /s/{id}, /terms and /info, with its files under /assets/). It reads this JSON API.",
          responses: { "200": { description: "The page", content: { "text/html": { schema: str } } }, "404": err("The page is not built or is turned off") },
        },
      },
      "/ingest": {
        post: {
          operationId: "ingest",
          summary: "Incrementally ingest files or folders under the configured roots",
          security: [{ bearer: [] }],
          requestBody: { required: true, content: { "application/json": { schema: ref("IngestRequest") } } },
          responses: {
            "200": json({ type: "object", properties: { files: { type: "array", items: { type: "object" } }, chunks_written: int, chunks_deleted: int, total_chunks: int, timings_ms: { type: "object" } } }, "Ingest report"),
            "400": err("Invalid body"),
            "401": err("Missing or wrong bearer token"),
            "403": err("Path outside the ingest roots (.., absolute path, symbolic link out)"),
            "404": err("Path does not exist"),
            "409": err("Another ingest is running"),
            "413": err(`Body larger than ${limits.bodyBytes} bytes`),
            ...common,
          },
        },
      },
      "/health": { get: { operationId: "health", summary: "Liveness and index size", responses: { "200": json({ type: "object", properties: { status: str, chunks: int, ingesting: { type: "boolean" }, index: indexState } }, "Serving"), "503": err("Shutting down") } } },
      "/metrics": { get: { operationId: "metrics", summary: "Prometheus metrics (text format)", responses: { "200": { description: "Metrics", content: { "text/plain": { schema: str } } } } } },
      "/openapi.json": { get: { operationId: "openapi", summary: "This document", responses: { "200": json({ type: "object" }, "OpenAPI 3.1 document") } } },
      "/mcp": {
        post: {
          operationId: "mcp",
          summary: "Model Context Protocol, Streamable HTTP transport (stateless, JSON responses); tools search_documents, get_section, lookup_definition",
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", description: "JSON-RPC 2.0 message" } } } },
          responses: { "200": json({ type: "object" }, "JSON-RPC response"), "202": { description: "Notification accepted" }, ...common },
        },
      },
    },
  };
}
