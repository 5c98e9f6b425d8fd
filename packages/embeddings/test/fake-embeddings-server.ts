import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown> | undefined;
  rawBody: string;
}

/** Handles one request; returning nothing means "use the default embeddings response". */
export type Responder = (req: RecordedRequest, res: ServerResponse) => boolean | void;

/** Deterministic, non-normalised vector for an input (so tests can predict the decoded, normalised result). */
export function fakeVector(text: string, dims: number): number[] {
  const v: number[] = [];
  for (let d = 0; d < dims; d++) v.push(((text.length * (d + 1) + text.charCodeAt(d % Math.max(1, text.length)) * 7) % 17) - 8 + 0.5);
  return v;
}

function toBase64(values: number[]): string {
  return Buffer.from(new Float32Array(values).buffer).toString("base64");
}

/** A local server speaking the OpenAI Embeddings wire format, with a queue of scripted responders. */
export class FakeEmbeddingsServer {
  readonly requests: RecordedRequest[] = [];
  readonly queue: Responder[] = [];
  dims = 8;
  /** Return data items in reverse order (clients must sort by `index`). */
  shuffle = true;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const rawBody = Buffer.concat(chunks).toString("utf8");
        let body: Record<string, unknown> | undefined;
        try {
          body = rawBody ? (JSON.parse(rawBody) as Record<string, unknown>) : undefined;
        } catch {
          body = undefined;
        }
        const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, rawBody };
        this.requests.push(recorded);
        const responder = this.queue.shift();
        if (responder && responder(recorded, res)) return;
        this.respondEmbeddings(recorded, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  respondEmbeddings(req: RecordedRequest, res: ServerResponse): void {
    const input = req.body?.input;
    const inputs = Array.isArray(input) ? (input as string[]) : [String(input)];
    const base64 = req.body?.encoding_format === "base64";
    const data = inputs.map((text, index) => ({
      object: "embedding",
      index,
      embedding: base64 ? toBase64(fakeVector(text, this.dims)) : fakeVector(text, this.dims),
    }));
    if (this.shuffle) data.reverse();
    const tokens = inputs.reduce((n, t) => n + t.split(/\s+/).length, 0);
    json(res, 200, { object: "list", data, model: req.body?.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  }
}

/** Writes a JSON response. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
  return true;
}
