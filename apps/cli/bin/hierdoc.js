#!/usr/bin/env node
import { main } from "../dist/main.js";
main(process.argv).then(
  (code) => { process.exitCode = code; },
  (err) => { process.stderr.write(`hierdoc: ${err?.message ?? err}\n`); process.exitCode = 1; },
);
