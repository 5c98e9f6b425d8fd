import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { HierdocError } from "@hierdoc/core";

/** Weight formats transformers.js can load, as `embedding.dtype` names them. */
export const TRANSFORMERS_DTYPES = ["fp32", "fp16", "q8", "int8", "uint8", "q4", "q4f16", "bnb4"] as const;

/** One of {@link TRANSFORMERS_DTYPES}. */
export type TransformersDtype = (typeof TRANSFORMERS_DTYPES)[number];

/** The ONNX file transformers.js reads for a dtype (`onnx/model_quantized.onnx` for `q8`). */
export function onnxFileFor(dtype: TransformersDtype): string {
  const suffix: Record<TransformersDtype, string> = {
    fp32: "",
    fp16: "_fp16",
    q8: "_quantized",
    int8: "_int8",
    uint8: "_uint8",
    q4: "_q4",
    q4f16: "_q4f16",
    bnb4: "_bnb4",
  };
  return `onnx/model${suffix[dtype]}.onnx`;
}

function dtypeOfFile(file: string): TransformersDtype | undefined {
  return TRANSFORMERS_DTYPES.find((d) => onnxFileFor(d) === `onnx/${file}`);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Checks that a local model folder holds what transformers.js will read for `dtype`, before loading it,
 * so a wrong path or a missing file is one clear `E_CONFIG` naming the folder, the missing file, and the
 * dtypes the folder does have.
 *
 * @returns the absolute folder path.
 * @throws HierdocError E_CONFIG (path `embedding.model_path` or `embedding.dtype`).
 */
export async function checkModelFolder(folder: string, dtype: TransformersDtype): Promise<string> {
  const dir = resolve(folder);
  let isDir = false;
  try {
    isDir = (await stat(dir)).isDirectory();
  } catch {
    /* reported below */
  }
  if (!isDir) {
    throw new HierdocError("E_CONFIG", `embedding.model_path ${dir} is not a folder (expected config.json, tokenizer.json and onnx/model*.onnx inside)`, {
      details: { path: "embedding.model_path", file: dir },
    });
  }
  for (const file of ["config.json", "tokenizer.json"]) {
    if (!(await isFile(join(dir, file)))) {
      throw new HierdocError("E_CONFIG", `model folder ${dir} has no ${file}: it must be a transformers.js model (config.json, tokenizer.json, onnx/model*.onnx)`, {
        details: { path: "embedding.model_path", file: join(dir, file) },
      });
    }
  }
  const wanted = onnxFileFor(dtype);
  if (!(await isFile(join(dir, wanted)))) {
    let present: TransformersDtype[] = [];
    try {
      present = (await readdir(join(dir, "onnx"))).map(dtypeOfFile).filter((d): d is TransformersDtype => d !== undefined);
    } catch {
      /* no onnx folder */
    }
    const hint = present.length ? `; the folder has ${present.map((d) => `${onnxFileFor(d)} (dtype: ${d})`).join(", ")}: set embedding.dtype` : "; the folder has no onnx/model*.onnx";
    throw new HierdocError("E_CONFIG", `model folder ${dir} has no ${wanted} for embedding.dtype ${dtype}${hint}`, {
      details: { path: "embedding.dtype", file: join(dir, wanted) },
    });
  }
  return dir;
}
