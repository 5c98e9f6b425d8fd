/* eslint-disable @typescript-eslint/no-explicit-any -- wire stand-ins: request bodies are arbitrary JSON, checked by the tests */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a {@link RecordingHttpServer} received. */
export interface RecordedHttpRequest {
  method: string;
  /** URL path (as sent: not percent-decoded). */
  path: string;
  /** Query parameters (the last value of a repeated one). */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The `content-type` request header, `""` when absent. */
  contentType: string;
  /** The body as {@link RecordingHttpServer.parseBody} read it (JSON by default; `undefined` when empty). */
  body: any;
}

/** An answer: status, JSON body (none when `undefined`) and extra headers. */
export interface ScriptedResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A local HTTP stand-in for a store's REST API, for wire tests: listens on 127.0.0.1 on a free port,
 * records every request (method, path, query, headers, parsed body), answers first from the scripted
 * {@link failNext} queue, can {@link hang}, and otherwise hands the request to the subclass's
 * {@link respond}. Subclasses add the store's routes and state; `R` (built by {@link describe}) lets them
 * record more, or differently, per request.
 *
 * Use it when the adapter's client talks HTTP and the real server is not available in the test run.
 */
export abstract class RecordingHttpServer<R extends { method: string; path: string } = RecordedHttpRequest> {
  /** Every request received since the last {@link reset}, in order. */
  readonly requests: R[] = [];
  /** Scripted answers given (and removed) one per request, before routing. */
  failNext: ScriptedResponse[] = [];
  /** When true, requests are recorded and never answered. */
  hang = false;
  /** Base URL (`http://127.0.0.1:PORT`) once started. */
  url = "";
  /** `content-type` of every answer. */
  protected responseContentType = "application/json";
  private server: Server | undefined;

  /** Starts listening on 127.0.0.1 on a free port; returns {@link url}. */
  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Drops open connections (including hung requests) and stops listening. */
  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s === undefined) return;
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }

  /** Forgets recorded requests and scripted answers and stops hanging; the stored data stays. */
  reset(): void {
    this.requests.length = 0;
    this.failNext = [];
    this.hang = false;
  }

  /** Recorded requests whose path ends with `suffix` (and with `method`, when given). */
  find(suffix: string, method?: string): R[] {
    return this.requests.filter((r) => r.path.endsWith(suffix) && (method === undefined || r.method === method));
  }

  /** The store's routes: status and JSON body for a request that was neither scripted nor hung. */
  protected abstract respond(request: R): [status: number, body: unknown];

  /** Body of a {@link failNext} answer that has none. */
  protected abstract failureBody(status: number): unknown;

  /** Answer when {@link respond} throws. Default: 500 with `{ error: message }`. */
  protected respondToError(err: unknown, _request: R): ScriptedResponse {
    return { status: (err as { status?: number }).status ?? 500, body: { error: (err as Error).message } };
  }

  /** Parses a request body. Default: JSON, `undefined` when empty. */
  protected parseBody(text: string, _url: URL): unknown {
    return text === "" ? undefined : JSON.parse(text);
  }

  /** Turns the standard record into the subclass's (decoded path, array query, extra fields). Default: as is. */
  protected describe(request: RecordedHttpRequest, _url: URL): R {
    return request as unknown as R;
  }

  /** Extra headers of a routed answer, read right after {@link respond} (e.g. a paging continuation). Default: none. */
  protected headersFor(_request: R): Record<string, string> | undefined {
    return undefined;
  }

  /** An answer given before {@link hang} and {@link failNext} apply (e.g. a client's version probe). */
  protected intercept(_request: R): ScriptedResponse | undefined {
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", "http://x");
    const body = this.parseBody(Buffer.concat(chunks).toString("utf8"), url);
    const request = this.describe(
      {
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        contentType: String(req.headers["content-type"] ?? ""),
        body,
      },
      url,
    );
    this.requests.push(request);
    const early = this.intercept(request);
    if (early !== undefined) return this.send(res, early);
    if (this.hang) return;
    const fail = this.failNext.shift();
    if (fail !== undefined) return this.send(res, { ...fail, body: fail.body ?? this.failureBody(fail.status) });
    let answer: ScriptedResponse;
    try {
      const [status, out] = this.respond(request);
      answer = { status, body: out, headers: this.headersFor(request) };
    } catch (err) {
      answer = this.respondToError(err, request);
    }
    this.send(res, answer);
  }

  private send(res: ServerResponse, answer: ScriptedResponse): void {
    res
      .writeHead(answer.status, { "content-type": this.responseContentType, ...answer.headers })
      .end(answer.body === undefined ? "" : JSON.stringify(answer.body));
  }
}
