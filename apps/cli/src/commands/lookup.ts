import { join } from "node:path";
import { HierdocError } from "@hierdoc/core";
import { readContextUsage } from "@hierdoc/contextualizer";
import { ExitCode } from "../exit-codes.js";
import { breadcrumb, definitionJson, recordJson } from "../format.js";
import { err, out } from "../io.js";
import { describeOpenInfo } from "@hierdoc/tool";
import { openTool, type IndexOptions } from "../runtime.js";

/** Options shared by section / define / refs / stats. */
export interface LookupOptions extends IndexOptions {
  json?: boolean;
  list?: boolean;
}

/** `hierdoc section ID`: the chunks of a section, by canonical id or alias. */
export async function sectionCommand(id: string, opts: LookupOptions): Promise<number> {
  const tool = await openTool(opts, { mustExist: true, onWarning: (m) => err(`warning: ${m}`) });
  try {
    const records = await tool.section(id);
    if (opts.json) await out(JSON.stringify({ query: id, found: records.length > 0, chunks: records.map(recordJson) }) + "\n");
    else if (records.length > 0) {
      const r = records[0];
      await out(`${r.sourcePath}  [${r.sectionId}]\n${breadcrumb(r.parentChain, r.sectionTitle, r.sectionId)}\n\n${records.map((x) => x.content).join("\n")}\n`);
    }
    if (records.length === 0) {
      err(`no section "${id}" in the index`);
      return ExitCode.notFound;
    }
    return ExitCode.ok;
  } finally {
    await tool.close();
  }
}

/** `hierdoc define TERM` / `hierdoc define --list`. */
export async function defineCommand(term: string | undefined, opts: LookupOptions): Promise<number> {
  if (!term && !opts.list) throw new HierdocError("E_INVALID_ARGUMENT", "give a TERM or --list");
  const tool = await openTool(opts, { mustExist: true, onWarning: (m) => err(`warning: ${m}`) });
  try {
    const entries = opts.list ? tool.listDefinitions() : tool.define(term!);
    if (opts.json) await out(JSON.stringify(opts.list ? { definitions: entries.map(definitionJson) } : { term, found: entries.length > 0, definitions: entries.map(definitionJson) }) + "\n");
    else await out(entries.map((d) => `${d.term} — ${d.sourcePath} ${d.sourceSection}\n  ${d.definitionText}\n`).join("\n"));
    if (!opts.list && entries.length === 0) {
      err(`"${term}" is not a defined term in the index`);
      return ExitCode.notFound;
    }
    return ExitCode.ok;
  } finally {
    await tool.close();
  }
}

/** `hierdoc refs ID`: outgoing and incoming cross-references of a section. */
export async function refsCommand(id: string, opts: LookupOptions): Promise<number> {
  const tool = await openTool(opts, { mustExist: true, onWarning: (m) => err(`warning: ${m}`) });
  try {
    const refs = await tool.refs(id);
    if (opts.json) {
      await out(
        JSON.stringify({
          query: id,
          section_id: refs.sectionId,
          outgoing: refs.outgoing.map((x) => ({ text: x.text, target_section_id: x.targetSectionId, external: x.external, cited_document: x.citedDocument ?? null })),
          incoming: refs.incoming.map((x) => ({ from_section_id: x.fromSectionId, source_path: x.sourcePath, text: x.text, target_section_id: x.targetSectionId ?? null })),
        }) + "\n",
      );
    } else if (refs.sectionId) {
      const lines = [`${refs.sectionId}`, "outgoing:"];
      for (const x of refs.outgoing) lines.push(`  ${x.text} → ${x.external ? `external ${x.citedDocument ?? ""}`.trim() : x.targetSectionId ?? "unresolved"}`);
      lines.push("incoming:");
      for (const x of refs.incoming) lines.push(`  ${x.fromSectionId}: ${x.text}`);
      await out(lines.join("\n") + "\n");
    }
    if (!refs.sectionId) {
      err(`no section "${id}" in the index`);
      return ExitCode.notFound;
    }
    return ExitCode.ok;
  } finally {
    await tool.close();
  }
}

/** `hierdoc stats`: what the index holds. */
export async function statsCommand(opts: LookupOptions): Promise<number> {
  const t0 = performance.now();
  const tool = await openTool(opts, { mustExist: true, onWarning: (m) => err(`warning: ${m}`) });
  try {
    const s = await tool.stats();
    const openMs = Math.round(performance.now() - t0);
    const llm = await readContextUsage(join(tool.indexDir, "contexts")).catch(() => null);
    if (opts.json) await out(JSON.stringify({ index: tool.indexDir, ...s, open_ms: openMs, open: tool.openInfo, llm_usage: llm }) + "\n");
    else {
      await out(
        [
          `index: ${tool.indexDir}`,
          `files: ${s.files}, chunks: ${s.chunks}, definitions: ${s.definitions}, keyword docs: ${s.keywordDocs}`,
          `embedder: ${s.embedder} (${s.dimensions} dims), store: ${s.store}`,
          `opened in ${openMs} ms: ${describeOpenInfo(tool.openInfo)}`,
          ...(llm && llm.models.length > 0
            ? llm.models.map((m) => `llm ${m.model}: ${m.requests} calls, tokens in ${m.inputTokens} (cache write ${m.cacheCreationInputTokens}, cache read ${m.cacheReadInputTokens}), out ${m.outputTokens}${m.costUsd == null ? "" : `, ≈ $${m.costUsd.toFixed(4)}`}`)
            : []),
        ].join("\n") + "\n",
      );
    }
    return ExitCode.ok;
  } finally {
    await tool.close();
  }
}
