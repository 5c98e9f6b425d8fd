import { isHierdocError } from "@hierdoc/core";

/** Process exit codes of the `hierdoc` command. */
export const ExitCode = {
  ok: 0,
  /** A runtime failure (store unreachable, corrupt index, …). */
  failure: 1,
  /** Bad usage, bad arguments or an invalid config. */
  usage: 2,
  /** Ingest finished, but some files failed (the others are indexed). */
  partial: 3,
  /** The section, term or index asked for does not exist. */
  notFound: 4,
  /** Ingest found files in the folders or globs given but took none of them (all skipped: extension, exclude, not text). */
  nothingIngested: 5,
  /** Interrupted (Ctrl-C / SIGTERM); what finished before is kept. */
  cancelled: 130,
} as const;

/** The exit code for an error. */
export function exitCodeFor(err: unknown): number {
  if (isHierdocError(err)) {
    switch (err.code) {
      case "E_CONFIG":
      case "E_INVALID_ARGUMENT":
        return ExitCode.usage;
      case "E_CANCELLED":
        return ExitCode.cancelled;
      case "E_INDEX_MISSING":
      case "E_NOT_FOUND":
      case "E_INPUT_NOT_FOUND":
        return ExitCode.notFound;
      default:
        return ExitCode.failure;
    }
  }
  return ExitCode.failure;
}
