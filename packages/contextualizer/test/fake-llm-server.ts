import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Chunk, ConvertedDocument } from "@hierdoc/core";

/** A request as the fake server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** What the fake server answers: a status and JSON (or raw text) body, or no answer at all. */
export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  hang?: boolean;
}

/** A local HTTP server on 127.0.0.1:0 that records requests and answers with `responder`. */
export interface FakeServer {
  url: string;
  requests: SeenRequest[];
  responder: (req: SeenRequest) => FakeReply;
  close(): Promise<void>;
}

export async function startFakeServer(responder: (req: SeenRequest) => FakeReply): Promise<FakeServer> {
  const state: FakeServer = { url: "", requests: [], responder, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const seen: SeenRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, raw, body };
      state.requests.push(seen);
      const reply = state.responder(seen);
      if (reply.hang) return;
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.end(reply.text ?? JSON.stringify(reply.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** Approximate token count the fake servers report (4 characters a token). */
export const fakeTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * A Messages-API responder that simulates prompt caching: the first request carrying a given
 * `cache_control` document block is a cache write, later ones are cache reads.
 */
export function anthropicResponder(answer: (chunkBlock: string) => string = defaultAnswer): (req: SeenRequest) => FakeReply {
  const cached = new Set<string>();
  return (req) => {
    const blocks = req.body.messages[0].content as Array<{ text: string; cache_control?: unknown }>;
    const doc = blocks.find((b) => b.cache_control)?.text ?? "";
    const rest = blocks.filter((b) => !b.cache_control).map((b) => b.text).join("");
    const write = doc && !cached.has(doc);
    if (doc) cached.add(doc);
    const text = answer(rest);
    return {
      json: {
        id: `msg_${req.url.length}${Math.random().toString(36).slice(2, 8)}`,
        type: "message",
        role: "assistant",
        model: req.body.model,
        content: [{ type: "text", text }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: {
          input_tokens: fakeTokens(rest) + fakeTokens(req.body.system ?? ""),
          cache_creation_input_tokens: write ? fakeTokens(doc) : 0,
          cache_read_input_tokens: doc && !write ? fakeTokens(doc) : 0,
          output_tokens: fakeTokens(text),
        },
      },
    };
  };
}

/** A Chat Completions responder; reports a prefix of the prompt as cached after the first call. */
export function openaiResponder(answer: (prompt: string) => string = defaultAnswer): (req: SeenRequest) => FakeReply {
  let calls = 0;
  return (req) => {
    const prompt = (req.body.messages as Array<{ content: string }>).map((m) => m.content).join("\n");
    const text = answer(prompt);
    const promptTokens = fakeTokens(prompt);
    const cached = calls++ === 0 ? 0 : Math.floor(promptTokens / 2);
    return {
      json: {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1_700_000_000,
        model: req.body.model,
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop", logprobs: null }],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: fakeTokens(text),
          total_tokens: promptTokens + fakeTokens(text),
          prompt_tokens_details: { cached_tokens: cached },
        },
      },
    };
  };
}

function defaultAnswer(prompt: string): string {
  const chunk = /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(prompt)?.[1] ?? "";
  return `This chunk (${chunk.slice(0, 24)}) sits in the test regulation.`;
}

/** A small regulation with `n` chunks, one per article. */
export function makeDocument(n: number, sourcePath = "docs/reg.md"): { document: ConvertedDocument; chunks: Chunk[] } {
  const parts: string[] = [];
  const chunks: Chunk[] = [];
  let text = "# Test Regulation\n\n";
  for (let i = 0; i < n; i++) {
    const content = `## Article ${i + 1}\n\nThe operator shall keep record ${i + 1} for ${i + 2} years and report it to the authority.`;
    const start = text.length;
    text += `${content}\n\n`;
    parts.push(content);
    chunks.push({
      id: `${sourcePath}_chunk_${i}`,
      sourcePath,
      chunkIndex: i,
      content,
      start,
      end: start + content.length,
      sectionId: `Article ${i + 1}`,
      sectionTitle: `Article ${i + 1}`,
      parentChain: ["Test Regulation"],
      chunkType: "requirement",
      tokens: fakeTokens(content),
      unitIds: [],
    });
  }
  return { document: { sourcePath, fileType: "markdown", format: "markdown", text, title: "Test Regulation" }, chunks };
}
