// The search thread's script (see search-thread.ts): views the store's graph file and opens its vectors
// files, then answers unfiltered top-k searches with rows and exact scores, as the store's own thread would.
import { parentPort, workerData } from "node:worker_threads";
import { AnnIndex } from "@hierdoc/ann";
import { graphSearch } from "./ann-leg.js";
import type { SearchReply, SearchRequest, SearchStop, SearchThreadInit } from "./search-thread.js";
import { SegmentVectors } from "./segment-vectors.js";

const port = parentPort;
if (port === null) throw new Error("search-thread-worker.js runs as a worker thread");
const init = workerData as SearchThreadInit;
let reply: SearchReply;
let vectors: SegmentVectors | undefined;
try {
  const index = AnnIndex.view(init.graphPath, init.indexOptions);
  if (index.size !== init.rows) throw new Error(`graph ${init.graphPath} holds ${index.size} vectors, expected ${init.rows}`);
  vectors = SegmentVectors.open(init.dir, init.manifest, init.places);
  const scorer = vectors;
  port.on("message", (m: SearchRequest | SearchStop) => {
    // Asked to stop (after any search before it): close the files and the port, so the thread ends between
    // searches. Terminating it inside a native search would abort the whole process (usearch throws Napi::Error).
    if ("stop" in m) {
      scorer.close();
      port.close();
      return;
    }
    if (!(m.query instanceof Float32Array)) throw new Error("search thread: a message that is neither a search nor stop");
    let out: SearchReply;
    try {
      const hits = graphSearch(index, init.ann, scorer, m.query, m.k, m.candidates);
      out = { id: m.id, rows: Int32Array.from(hits, (h) => h.index), scores: Float64Array.from(hits, (h) => h.score) };
    } catch (err) {
      out = { id: m.id, error: (err as Error).message };
    }
    port.postMessage(out);
  });
  reply = { ready: true };
} catch (err) {
  vectors?.close();
  reply = { failed: (err as Error).message };
}
port.postMessage(reply);
