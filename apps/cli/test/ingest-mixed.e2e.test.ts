import { afterAll, describe, expect, it } from "@jest/globals";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { deflateSync } from "node:zlib";
import { runCli, SAMPLE } from "./run-cli.js";

const tmp = mkdtempSync(join(tmpdir(), "hierdoc-mixed-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** An agent.yaml using the hash embedder (fast; these tests are about which files ingest, not ranking). */
function config(dir: string, extra = ""): string {
  const path = join(dir, "agent.yaml");
  writeFileSync(path, `tools:\n  - name: docs\n    type: hierarchical_document\n    source: ${dir}\n    embedding: { provider: hash }\n${extra}`);
  return path;
}

/** Every file under `dir` (no dot-folders), relative. */
function allFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.name.startsWith(".") ? [] : e.isDirectory() ? allFiles(join(dir, e.name), base) : [relative(base, join(dir, e.name))],
  );
}

/** The sample corpus, source files, an unknown text file and unknown binaries. */
function mixedFolder(name: string): string {
  const dir = join(tmp, name);
  cpSync(SAMPLE, join(dir, "docs"), { recursive: true });
  mkdirSync(join(dir, "src"), { recursive: true });
  mkdirSync(join(dir, "assets"), { recursive: true });
  writeFileSync(join(dir, "src", "pump.py"), "class Pump:\n    def start(self):\n        return 'started'\n\n\ndef stop_all():\n    pass\n");
  writeFileSync(join(dir, "src", "Valve.java"), "public class Valve {\n  public void open() {}\n  public void close() {}\n}\n");
  writeFileSync(join(dir, "src", "notes.weird"), "Valve 7 is inspected every Tuesday.\n");
  writeFileSync(join(dir, "assets", "blob.dat"), Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00]));
  writeFileSync(join(dir, "assets", "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
  return dir;
}

/** A PDF whose content stream repeats a text operation millions of times: text extraction spins for seconds. */
function spinningPdf(): Buffer {
  const stream = deflateSync(Buffer.from("BT /F1 12 Tf 72 720 Td (spin spin spin spin) Tj ET\n".repeat(2_000_000)));
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ].map((o) => Buffer.from(o));
  objects.push(Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream, Buffer.from("\nendstream")]));
  const parts = [Buffer.from("%PDF-1.4\n")];
  let size = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(size);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from("\nendobj\n")]);
    parts.push(obj);
    size += obj.length;
  });
  const xref = `xref\n0 6\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`));
  return Buffer.concat(parts);
}

describe("hierdoc ingest on a mixed folder (built binary): every file accounted for", () => {
  it("--json lists each ingested file in `files` and each other one in `skipped` with its reason; the terminal says the same with a hint", async () => {
    const dir = mixedFolder("mixed");
    const cfg = config(tmp);
    const onDisk = allFiles(dir);
    expect(onDisk).toHaveLength(8);
    const res = await runCli(["ingest", dir, "--config", cfg, "--index", join(tmp, "idx-json"), "--json", "--quiet"], { timeoutMs: 180_000 });
    expect(res.stderr).not.toContain("error:");
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    const ingested = out.files.map((f: { source_path: string }) => relative(dir, f.source_path));
    const skipped = out.skipped.examples.map((e: { source_path: string }) => relative(dir, e.source_path));
    expect(out.files.every((f: { outcome: string }) => f.outcome === "added")).toBe(true);
    expect([...ingested, ...skipped].sort()).toEqual(onDisk.sort());
    expect(out.skipped).toMatchObject({ total: 3, by_reason: { "unsupported-extension": 3 }, by_extension: { ".dat": 1, ".png": 1, ".weird": 1 }, unsupported_text: 1 });
    expect(ingested).toEqual(expect.arrayContaining(["src/pump.py", "src/Valve.java", "docs/harbour-data-act.md"]));

    const text = await runCli(["ingest", dir, "--config", cfg, "--index", join(tmp, "idx-text"), "--quiet"], { timeoutMs: 180_000 });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("5 added");
    expect(text.stdout).toMatch(/skipped 3 files \(3 no converter for the extension \(1 of them text\)\): \.dat 1, \.png 1, \.weird 1; e\.g\. \S*assets\/blob\.dat/);
    expect(text.stdout).toContain("hint: text files of other extensions ingest when included: --include '*.weird'");
  }, 400_000);

  it("--include takes a text file of any extension, never a binary one; --exclude leaves files out and says so", async () => {
    const dir = mixedFolder("include");
    const cfg = config(tmp);
    const res = await runCli(
      ["ingest", dir, "--config", cfg, "--index", join(tmp, "idx-include"), "--json", "--quiet", "--include", "*.weird", "--include", "assets/*", "--exclude", "*.java"],
      { timeoutMs: 180_000 },
    );
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    const ingested = out.files.map((f: { source_path: string }) => relative(dir, f.source_path));
    expect(ingested).toContain("src/notes.weird");
    expect(ingested).not.toContain("src/Valve.java");
    expect(out.skipped.by_reason).toEqual({ "not-text": 2, excluded: 1 });
    expect(ingested.length + out.skipped.total).toBe(8);
    const search = await runCli(["search", "Valve 7 Tuesday", "--index", join(tmp, "idx-include"), "--json", "--mode", "keyword"]);
    expect(JSON.parse(search.stdout).results[0].source_path).toBe(join(dir, "src", "notes.weird"));
  }, 400_000);

  it("exits 5 with a hint when a non-empty folder yields nothing to ingest", async () => {
    const dir = join(tmp, "only-binaries");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "a.dat"), Buffer.from([0, 1, 2]));
    writeFileSync(join(dir, "b.weird"), "text, but not a known extension\n");
    const res = await runCli(["ingest", dir, "--config", config(tmp), "--index", join(tmp, "idx-empty"), "--quiet"], { timeoutMs: 180_000 });
    expect(res.code).toBe(5);
    expect(res.stdout).toContain("skipped 2 files");
    expect(res.stderr).toContain("error: nothing was ingested: every one of the 2 file(s) found was skipped");
    expect(res.stderr).toContain("--include GLOB");
  }, 200_000);

  it("a PDF that makes the converter spin is stopped by the time cap with one error line; the rest of the folder ingests", async () => {
    const dir = join(tmp, "spin");
    cpSync(SAMPLE, dir, { recursive: true });
    writeFileSync(join(dir, "spin.pdf"), spinningPdf());
    const res = await runCli(["ingest", dir, "--config", config(tmp), "--index", join(tmp, "idx-spin"), "--quiet", "--timeout-seconds", "3", "--workers", "2"], { timeoutMs: 300_000 });
    expect(res.code).toBe(3);
    const errors = res.stderr.split("\n").filter((l) => l.startsWith("error:"));
    expect(errors).toEqual([`error: ${join(dir, "spin.pdf")}: converting took longer than 3 s (limits.timeout_seconds); stopped`]);
    expect(res.stdout).toContain("3 added, 0 updated, 0 unchanged, 0 removed, 1 failed");
  }, 400_000);

  it("rejects bad limit and worker flags as usage errors naming the flag", async () => {
    const idx = join(tmp, "idx-flags");
    const pages = await runCli(["ingest", SAMPLE, "--index", idx, "--max-pages", "0", "--quiet"]);
    expect(pages.code).toBe(2);
    expect(pages.stderr).toMatch(/--max-pages: .*(>=|at least|greater)/i);
    const workers = await runCli(["ingest", SAMPLE, "--index", idx, "--workers", "two", "--quiet"]);
    expect(workers.code).toBe(2);
    expect(workers.stderr).toContain("--workers needs a number");
  }, 120_000);
});
