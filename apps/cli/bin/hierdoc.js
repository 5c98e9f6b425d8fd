#!/usr/bin/env node
import { main } from "../dist/main.js";
let settled = false;
// If nothing keeps the event loop alive before the command resolves (a bug: e.g. an unref'd worker), Node exits
// with 0 in the middle of the work; say so and fail instead of reporting success with half an index.
process.on("exit", (code) => {
  if (settled || code !== 0) return;
  process.stderr.write("hierdoc: internal error: the process ran out of pending work before the command finished; its result is unknown\n");
  process.exitCode = 1;
});
main(process.argv).then(
  (code) => { settled = true; process.exitCode = code; },
  (err) => { settled = true; process.stderr.write(`hierdoc: ${err?.message ?? err}\n`); process.exitCode = 1; },
);
