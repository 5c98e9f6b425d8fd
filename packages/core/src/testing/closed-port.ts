import { createServer } from "node:net";

/**
 * A TCP port on 127.0.0.1 that nothing listens on (bound, then released), for "store unreachable" tests.
 * @throws Error when no port can be bound.
 */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}
