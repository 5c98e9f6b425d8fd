import type { ConvertedDocument, Converter } from "@hierdoc/core";
import { HierdocError } from "@hierdoc/core";
import { fileError, parseError } from "./errors.js";
import { MarkdownConverter } from "./markdown-converter.js";
import { binarySignature, extensionOf } from "./sniff.js";
import { TextConverter } from "./text-converter.js";
import { UslmConverter } from "./uslm-converter.js";
import { RfcXmlConverter } from "./rfc-converter.js";
import type { RfcSourceResolver } from "./rfc-xrefs.js";
import { PdfConverter } from "./pdf-converter.js";
import { DocxConverter } from "./docx-converter.js";
import { HtmlConverter } from "./html-converter.js";
import { PptxConverter } from "./pptx-converter.js";
import { XlsxConverter } from "./xlsx-converter.js";
import { CsvConverter } from "./csv-converter.js";
import { OdtConverter } from "./odt-converter.js";
import { EpubConverter } from "./epub-converter.js";
import { RtfConverter } from "./rtf-converter.js";
import { CodeConverter } from "./code-converter.js";

/** Default largest input accepted by {@link convertFile}: 64 MiB. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Default largest total uncompressed size of a DOCX archive: 256 MiB. */
export const DEFAULT_MAX_UNCOMPRESSED_BYTES = 256 * 1024 * 1024;

/** Options of {@link convertFile}. */
export interface ConvertOptions {
  /** Largest input file in bytes (default {@link DEFAULT_MAX_BYTES}); larger files fail with E_INPUT_TOO_LARGE. */
  maxBytes?: number;
  /** Largest total uncompressed size of a DOCX (zip-bomb guard; default {@link DEFAULT_MAX_UNCOMPRESSED_BYTES}). */
  maxUncompressedBytes?: number;
  /**
   * Reader for documents an xml2rfc file names in `<x:source href>`, so cross-references into them carry
   * section numbers ("Section 3.7 of [HTTP]"). Only applications read files; without it they read "[HTTP]".
   */
  resolveSource?: RfcSourceResolver;
  /** Converters to try, in order; the first whose `canConvert` is true converts. Default: {@link createConverters}. */
  converters?: Converter[];
}

/** Limits the built-in converters take. */
export interface ConverterLimits {
  /** Zip-bomb guard of the DOCX converter (default {@link DEFAULT_MAX_UNCOMPRESSED_BYTES}). */
  maxUncompressedBytes?: number;
  /** Most pages read from one PDF (default 10,000). */
  maxPdfPages?: number;
  /** Most data rows written per spreadsheet sheet or CSV file (default 10,000; the rest are counted in a note). */
  maxSheetRows?: number;
  /** Most entity declarations in an XML DOCTYPE: USLM, xml2rfc and the parts of PPTX/XLSX/ODT/EPUB (default 256). */
  maxXmlEntities?: number;
  /** See {@link ConvertOptions.resolveSource}. */
  resolveSource?: RfcSourceResolver;
}

/**
 * The built-in converters in the order they are tried (most specific first, plain text last).
 * Pass limits to change the DOCX zip-bomb guard.
 */
export function createConverters(limits: ConverterLimits = {}): Converter[] {
  const xml = limits.maxXmlEntities === undefined ? undefined : { maxEntities: limits.maxXmlEntities };
  return [
    new PdfConverter({ maxPages: limits.maxPdfPages }),
    new DocxConverter({ maxUncompressedBytes: limits.maxUncompressedBytes ?? DEFAULT_MAX_UNCOMPRESSED_BYTES }),
    new PptxConverter({ maxUncompressedBytes: limits.maxUncompressedBytes, xml }),
    new XlsxConverter({ maxUncompressedBytes: limits.maxUncompressedBytes, maxRows: limits.maxSheetRows, xml }),
    new OdtConverter({ maxUncompressedBytes: limits.maxUncompressedBytes, xml }),
    new EpubConverter({ maxUncompressedBytes: limits.maxUncompressedBytes, xml }),
    new RtfConverter(),
    new UslmConverter(xml),
    new RfcXmlConverter({ resolveSource: limits.resolveSource, ...xml }),
    new CsvConverter({ maxRows: limits.maxSheetRows }),
    new CodeConverter(),
    new HtmlConverter(),
    new MarkdownConverter(),
    new TextConverter(),
  ];
}

/** The built-in converters with default limits, in the order {@link convertFile} tries them. */
export const defaultConverters: Converter[] = createConverters();

/**
 * Picks a converter by content and extension and converts one file.
 *
 * Use it for every file of an ingest: one file's failure is one error, never a crash of the whole run.
 *
 * @throws HierdocError naming the file (`details.file`): E_INPUT_TOO_LARGE over `maxBytes`,
 *   E_UNSUPPORTED_TYPE when no converter takes the file (images, archives, …), E_INPUT_EMPTY / E_INPUT_BINARY /
 *   E_INPUT_ENCODING for bad text, E_PARSE for a broken PDF, DOCX or XML. Anything else a converter throws is
 *   wrapped as E_PARSE.
 */
export async function convertFile(
  path: string,
  bytes: Uint8Array,
  options: ConvertOptions = {},
): Promise<ConvertedDocument> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.length > maxBytes) {
    throw fileError("E_INPUT_TOO_LARGE", path, `file is ${bytes.length} bytes; the limit is ${maxBytes} (maxBytes)`, {
      details: { size: bytes.length, limit: maxBytes },
    });
  }
  if (bytes.length === 0) throw fileError("E_INPUT_EMPTY", path, "the file is empty");
  const converters =
    options.converters ??
    (options.maxUncompressedBytes === undefined && options.resolveSource === undefined
      ? defaultConverters
      : createConverters({ maxUncompressedBytes: options.maxUncompressedBytes, resolveSource: options.resolveSource }));
  const input = { path, bytes };
  const converter = converters.find((c) => c.canConvert(input));
  if (!converter) {
    const kind = binarySignature(bytes);
    const ext = extensionOf(path);
    const what = kind ?? (ext ? `.${ext} file` : "file");
    throw fileError("E_UNSUPPORTED_TYPE", path, `unsupported file type (${what}); no converter handles it`, {
      details: { extension: ext, detected: kind ?? undefined },
    });
  }
  try {
    return await converter.convert(input);
  } catch (err) {
    if (err instanceof HierdocError) {
      if (err.details.file === undefined) err.details.file = path;
      throw err;
    }
    throw parseError(path, converter.id, err);
  }
}
