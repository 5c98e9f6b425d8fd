/** Milliseconds of CPU (user + system of this process) since `start` (a `process.cpuUsage()` reading). */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/**
 * Runs `run` on each query after `warmup` untimed runs on the first queries, and returns the wall and CPU
 * milliseconds of each timed run (CPU time barely moves with the machine's load) and its results, in order.
 */
export async function timeQueries<Q, R>(queries: readonly Q[], run: (q: Q) => Promise<R>, warmup = 20): Promise<{ wall: number[]; cpu: number[]; results: R[] }> {
  for (const q of queries.slice(0, warmup)) await run(q);
  const wall: number[] = [];
  const cpu: number[] = [];
  const results: R[] = [];
  for (const q of queries) {
    const c = process.cpuUsage();
    const t = performance.now();
    results.push(await run(q));
    wall.push(performance.now() - t);
    cpu.push(cpuMsSince(c));
  }
  return { wall, cpu, results };
}
