import type { ErrorCode } from "@hierdoc/core";
import { HierdocError, storeError } from "@hierdoc/core";

/** Adapter id used in every error this package throws. */
export const ADAPTER = "lancedb";

const IO_UNAVAILABLE = /os error (2|13|20|30)\b|No such file|Permission denied|Not a directory|Read-only file system/i;

/**
 * Maps a LanceDB error to a {@link HierdocError} naming the adapter, the operation and the table folder.
 *
 * A folder that cannot be opened or created (missing parent, not a directory, no permission, read-only)
 * → `E_STORE_UNAVAILABLE`; a vector-size complaint → `E_DIMENSION_MISMATCH`; anything else → `E_STORE`.
 * None is retryable: LanceDB is embedded, so retrying the same call meets the same folder.
 */
export function mapLanceError(err: unknown, operation: string, uri: string): HierdocError {
  if (err instanceof HierdocError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  let code: ErrorCode = "E_STORE";
  if (IO_UNAVAILABLE.test(reason)) code = "E_STORE_UNAVAILABLE";
  else if (/vector dimension|dimension mismatch/i.test(reason)) code = "E_DIMENSION_MISMATCH";
  const firstLine = reason.split(/\s{2,}Caused by:/)[0];
  return storeError(ADAPTER, code, operation, `lancedb at ${uri}: ${operation} failed: ${firstLine}`, { uri }, { cause: err });
}
