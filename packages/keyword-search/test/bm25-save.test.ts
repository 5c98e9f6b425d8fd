// Bm25Index.save writes nothing when the file on disk already holds this state (an ingest that changed nothing),
// and writes whenever the documents, the fingerprint, the folder or the file itself changed.
import { afterEach, describe, expect, it } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BM25_FILE_NAME, Bm25Index } from "@hierdoc/keyword-search";

const docs = [
  { id: "a", text: "harbour pilot register", sourcePath: "a.md" },
  { id: "b", text: "pilot licence fees and the register of pilots", sourcePath: "b.md" },
  { id: "c", text: "anchorage rules for the inner harbour", sourcePath: "c.md" },
];

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The file's identity (inode, size, mtime in ns): a rename over it or a rewrite changes it. */
function identity(folder: string): string {
  const st = statSync(join(folder, BM25_FILE_NAME), { bigint: true });
  return `${st.ino}:${st.size}:${st.mtimeNs}`;
}

describe("Bm25Index.save", () => {
  it("leaves the file it was loaded from or saved to untouched while nothing changed, and writes after any change", async () => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-bm25-save-"));
    const index = new Bm25Index();
    index.upsertSync(docs);
    await index.save(dir, { fingerprint: "f1" });
    const first = identity(dir);

    await index.save(dir, { fingerprint: "f1" });
    expect(identity(dir)).toBe(first);

    const loaded = (await Bm25Index.load(dir))!;
    await loaded.save(dir, { fingerprint: "f1" });
    expect(identity(dir)).toBe(first);

    // A new fingerprint is written (the file carries it).
    await loaded.save(dir, { fingerprint: "f2" });
    const second = identity(dir);
    expect(second).not.toBe(first);
    expect((await Bm25Index.load(dir))!.fingerprint).toBe("f2");

    // A document added, then removed again: two changes, written (the merge drops nothing it should keep).
    loaded.upsertSync([{ id: "d", text: "tug assistance", sourcePath: "d.md" }]);
    await loaded.save(dir, { fingerprint: "f2" });
    const third = identity(dir);
    expect(third).not.toBe(second);
    expect((await Bm25Index.load(dir))!.documentCount).toBe(4);
    loaded.removeSync(["d"]);
    await loaded.save(dir, { fingerprint: "f2" });
    expect(identity(dir)).not.toBe(third);
    expect((await Bm25Index.load(dir))!.documentCount).toBe(3);
  });

  it("writes when the file was replaced or removed since, and to another folder", async () => {
    dir = mkdtempSync(join(tmpdir(), "hierdoc-bm25-save-"));
    const a = join(dir, "a");
    const index = new Bm25Index();
    index.upsertSync(docs);
    await index.save(a, { fingerprint: "f" });
    const bytes = readFileSync(join(a, BM25_FILE_NAME));

    // Another writer replaced the file (here with other content): this state is written again.
    writeFileSync(join(a, BM25_FILE_NAME), Buffer.from("not an index"));
    await index.save(a, { fingerprint: "f" });
    expect(readFileSync(join(a, BM25_FILE_NAME)).equals(bytes)).toBe(true);

    rmSync(join(a, BM25_FILE_NAME));
    await index.save(a, { fingerprint: "f" });
    expect(readFileSync(join(a, BM25_FILE_NAME)).equals(bytes)).toBe(true);

    const b = join(dir, "b");
    await index.save(b, { fingerprint: "f" });
    expect(readFileSync(join(b, BM25_FILE_NAME)).equals(bytes)).toBe(true);
  });
});
