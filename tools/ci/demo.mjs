#!/usr/bin/env node
// The README's demo: build, ingest the sample corpus into ./.hierdoc and answer queries, offline.
import { spawnSync } from "node:child_process";

const env = { ...process.env, NX_NO_CLOUD: "true", NX_DAEMON: "false", NX_TUI: "false" };
function run(cmd, args) {
  console.error(`\n$ ${[cmd, ...args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}`);
  const res = spawnSync(cmd, args, { stdio: "inherit", env });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
run("npx", ["nx", "run-many", "-t", "build", "--output-style=static"]);
run("npx", ["hierdoc", "ingest", "examples/sample-corpus"]);
run("npx", ["hierdoc", "search", "can a data subject ask for their port record to be erased?", "--top-k", "3"]);
run("npx", ["hierdoc", "search", "who must be told about a security breach?", "--top-k", "2"]);
run("npx", ["hierdoc", "search", "Section 4(2)", "--top-k", "1"]);
run("npx", ["hierdoc", "define", "port record"]);
