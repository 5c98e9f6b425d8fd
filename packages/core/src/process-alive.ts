/**
 * True while process `pid` exists (signal 0 probes without signalling; EPERM means it exists but belongs to
 * someone else). Index folders use it to tell a live writer's lock or temp file from a dead process's leftover.
 */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
