import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { HierdocError } from "@hierdoc/core";
import { convertObliqa, type ObliqaInput } from "./obliqa.js";
import { convertPolicyqa, type PolicyqaConversion, type PolicyqaOptions, type SquadDataset } from "./policyqa.js";

async function readJson<T>(path: string): Promise<T> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new HierdocError("E_INPUT_NOT_FOUND", `cannot read ${path}`, { cause, details: { file: path } });
  }
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new HierdocError("E_PARSE", `${path}: invalid JSON`, { cause, details: { file: path } });
  }
}

/**
 * Reads an ObliQA folder (`ObliQA_dev.json` or another questions file, `document_files.json`,
 * `document_id_map.json`, `StructuredRegulatoryDocuments/*.json`) into converter input.
 * Throws `E_INPUT_NOT_FOUND` / `E_PARSE`.
 */
export async function readObliqa(corpusDir: string, questionsFile = join(corpusDir, "ObliQA_dev.json")): Promise<ObliqaInput> {
  const structuredDir = join(corpusDir, "StructuredRegulatoryDocuments");
  const names = (await readdir(structuredDir)).filter((n) => n.endsWith(".json")).sort();
  return {
    questions: await readJson(questionsFile),
    documentFiles: await readJson(join(corpusDir, "document_files.json")),
    documentIdMap: await readJson(join(corpusDir, "document_id_map.json")),
    structured: await Promise.all(names.map((n) => readJson<ObliqaInput["structured"][number]>(join(structuredDir, n)))),
  };
}

/** Reads and converts an ObliQA folder; see {@link convertObliqa}. */
export async function loadObliqaQrels(corpusDir: string, questionsFile?: string) {
  return convertObliqa(await readObliqa(corpusDir, questionsFile));
}

/** Reads PolicyQA `dev.json` and converts it; see {@link convertPolicyqa}. */
export async function loadPolicyqa(inputFile: string, options: PolicyqaOptions = {}): Promise<PolicyqaConversion> {
  return convertPolicyqa(await readJson<SquadDataset>(inputFile), options);
}

/** Writes the policy documents as UTF-8 `.txt` files into `dir` (created); returns their paths. */
export async function writePolicyDocuments(conversion: PolicyqaConversion, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths: string[] = [];
  for (const doc of conversion.documents) {
    const path = resolve(dir, doc.file);
    await writeFile(path, doc.text, "utf8");
    paths.push(path);
  }
  return paths;
}

/** Writes a text file, creating its folder. */
export async function writeText(path: string, text: string): Promise<void> {
  await mkdir(dirname(resolve(path)), { recursive: true });
  await writeFile(path, text, "utf8");
}
