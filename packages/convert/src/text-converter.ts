import type { ConvertInput, ConvertedDocument, Converter } from "@hierdoc/core";
import { decodeText, normalizeNewlines } from "./decode-text.js";
import { binarySignature, extensionOf, isBinaryExtension } from "./sniff.js";

/**
 * Plain text: `.txt` and any file no other converter claimed that is not a known binary format.
 * Strict decoding (see {@link decodeText}), CRLF and lone CR → LF; offsets refer to this normalised text.
 * Format `text`; the title is the first non-empty line (at most 200 characters).
 */
export class TextConverter implements Converter {
  readonly id = "text";

  canConvert(input: ConvertInput): boolean {
    return !isBinaryExtension(extensionOf(input.path)) && binarySignature(input.bytes) === null;
  }

  /** @throws HierdocError E_INPUT_ENCODING / E_INPUT_BINARY / E_INPUT_EMPTY (see {@link decodeText}). */
  async convert(input: ConvertInput): Promise<ConvertedDocument> {
    const text = normalizeNewlines(decodeText(input.path, input.bytes));
    const first = text.split("\n", 50).find((line) => line.trim() !== "");
    const title = first?.trim().slice(0, 200);
    return { sourcePath: input.path, fileType: "text", format: "text", text, ...(title ? { title } : {}) };
  }
}
