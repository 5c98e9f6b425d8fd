/**
 * A memoised dynamic import: the first call starts loading the module, later calls share its promise, and a
 * failed load is tried again on the next call. Packages load heavy client SDKs through these, so a process
 * that never calls a service never loads its SDK (the CLI's cold start).
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}
