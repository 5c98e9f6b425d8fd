/** Writes to stdout and waits until it drained (large JSON outputs, pipes). */
export function out(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** Writes a line to stderr. */
export function err(text: string): void {
  process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Milliseconds with one decimal. */
export function ms(v: number): string {
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;
}
