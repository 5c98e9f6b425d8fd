import { describe, expect, it } from "@jest/globals";
import { Bm25Index } from "@hierdoc/keyword-search";

describe("Bm25Index ties", () => {
  it("orders equal scores by id, whatever the insertion and update history", () => {
    const docs = ["d", "a", "c", "b", "e"].map((id) => ({ id, text: "the operator shall notify the authority", sourcePath: "x" }));
    const fresh = new Bm25Index();
    fresh.upsertSync(docs);
    const updated = new Bm25Index();
    updated.upsertSync([...docs].reverse());
    updated.removeSync(["c", "a"]);
    updated.upsertSync([docs[2], docs[1]]);
    const a = fresh.searchSync("operator authority", { topK: 3 });
    const b = updated.searchSync("operator authority", { topK: 3 });
    expect(a.map((h) => h.id)).toEqual(["a", "b", "c"]);
    expect(b).toEqual(a);
  });
});
