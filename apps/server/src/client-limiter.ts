import { HttpError } from "./http-errors.js";

/** Counts in-flight requests per client and refuses more than `max` at once. */
export class ClientLimiter {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly max: number) {}

  /**
   * Takes a slot for `client`; call the returned function exactly once when the work is done.
   * @throws HttpError 429 E_RATE_LIMITED when the client already has `max` requests in flight.
   */
  acquire(client: string): () => void {
    const n = this.inFlight.get(client) ?? 0;
    if (n >= this.max) {
      throw new HttpError(429, "E_RATE_LIMITED", `too many concurrent requests from this client (limit ${this.max})`, { headers: { "retry-after": "1" } });
    }
    this.inFlight.set(client, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(client) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(client);
      else this.inFlight.set(client, left);
    };
  }

  /** Requests in flight for a client (0 when none). */
  count(client: string): number {
    return this.inFlight.get(client) ?? 0;
  }
}
