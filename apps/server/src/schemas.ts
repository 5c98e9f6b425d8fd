import { z } from "zod";
import type { ServerLimits } from "./types.js";

const MODES = ["hybrid", "semantic", "keyword", "exact"] as const;
const CHUNK_TYPES = ["definition", "requirement", "content", "header"] as const;

/** Request schemas of the HTTP API, built for the configured limits (also the source of the OpenAPI schemas). */
export function requestSchemas(limits: ServerLimits) {
  const chunkType = z.enum(CHUNK_TYPES);
  const text = z.string().trim().min(1).max(limits.queryChars);
  const search = z.strictObject({
    query: text.describe("What to look for: words, a question, or a section id such as \"Article 17\""),
    top_k: z.number().int().min(1).max(limits.topK).optional().describe(`Results to return (default 10, at most ${limits.topK})`),
    mode: z.enum(MODES).optional().describe("Retrieval mode (default hybrid)"),
    filters: z
      .strictObject({
        source: z.union([z.string().min(1).max(500), z.array(z.string().min(1).max(500)).min(1).max(50)]).optional().describe("Glob(s) over source_path"),
        section_prefix: z.string().min(1).max(limits.queryChars).optional().describe("Section id prefix (\"Article 1\", \"9.3\")"),
        chunk_type: z.union([chunkType, z.array(chunkType).min(1)]).optional(),
      })
      .optional(),
  });
  const ingest = z.strictObject({
    paths: z.array(z.string().min(1).max(4096)).min(1).max(limits.ingestPaths).describe("Files or folders under the configured ingest roots (relative paths resolve against the first root)"),
    force: z.boolean().optional().describe("Re-ingest files whose content hash is unchanged"),
  });
  const id = text;
  return { search, ingest, id };
}

/** The parsed body of `POST /search`. */
export type SearchBody = z.infer<ReturnType<typeof requestSchemas>["search"]>;
/** The parsed body of `POST /ingest`. */
export type IngestBody = z.infer<ReturnType<typeof requestSchemas>["ingest"]>;

/** One line per problem: `top_k: Too big: expected number to be <=100`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "body"}: ${i.message}`)
    .join("; ");
}
