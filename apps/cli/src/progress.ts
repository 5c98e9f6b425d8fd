import cliProgress from "cli-progress";
import type { IngestProgress } from "@hierdoc/tool";
import { err } from "./io.js";

/** Reports ingest progress: a live bar on a terminal, a plain line per file (throttled) otherwise. */
export interface ProgressReporter {
  update(event: IngestProgress): void;
  stop(): void;
}

/** A reporter writing to stderr; `quiet` reports nothing. */
export function createProgress({ quiet }: { quiet: boolean }): ProgressReporter {
  if (quiet) return { update: () => {}, stop: () => {} };
  const started = performance.now();
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: "{bar} {value}/{total} files | {chunks} chunks | {tokens} tokens | {rate} | ETA {eta_formatted} | {file}",
        hideCursor: true,
        clearOnComplete: true,
        etaBuffer: 20,
      },
      cliProgress.Presets.shades_classic,
    );
    let startedBar = false;
    return {
      update(e) {
        if (!startedBar) {
          bar.start(e.files, 0, { chunks: 0, tokens: 0, rate: "", file: "" });
          startedBar = true;
        }
        const secs = (performance.now() - started) / 1000;
        const rate = secs > 0 ? `${((e.bytesDone / 1e6) / secs).toFixed(2)} MB/s` : "";
        const done = e.stage === "done" || e.stage === "skipped" || e.stage === "failed" ? e.file : e.file - 1;
        const within = e.stageTotal ? `${e.stage} ${e.stageDone}/${e.stageTotal} · ` : "";
        bar.update(done, { chunks: e.chunksDone, tokens: e.tokensDone, rate, file: `${within}${shorten(e.sourcePath)}` });
      },
      stop() {
        if (startedBar) bar.stop();
      },
    };
  }
  let last = 0;
  let lastWithin = 0;
  return {
    update(e) {
      if (e.stageTotal !== undefined) {
        // A long stage inside one file: a line at most every 5 s, so a slow embedder shows it is alive.
        const now = performance.now();
        if (now - lastWithin < 5000 || e.stageDone === e.stageTotal) return;
        lastWithin = now;
        err(`[${e.file}/${e.files}] ${e.stage.padEnd(7)} ${e.sourcePath} | ${e.stageDone}/${e.stageTotal} chunks`);
        return;
      }
      if (e.stage !== "done" && e.stage !== "skipped" && e.stage !== "failed") return;
      const now = performance.now();
      if (e.file !== e.files && now - last < 1000 && e.files > 50) return;
      last = now;
      const secs = (now - started) / 1000;
      const eta = e.file > 0 ? ((secs / e.file) * (e.files - e.file)).toFixed(0) : "?";
      err(`[${e.file}/${e.files}] ${e.stage.padEnd(7)} ${e.sourcePath} | ${e.chunksDone} chunks, ${e.tokensDone} tokens | ${secs.toFixed(1)} s, ETA ${eta} s`);
    },
    stop() {},
  };
}

function shorten(path: string, width = 40): string {
  return path.length <= width ? path : `…${path.slice(-(width - 1))}`;
}
