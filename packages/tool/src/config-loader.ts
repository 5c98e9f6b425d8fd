import { LineCounter, parseDocument, isMap, isSeq, isScalar, type Node } from "yaml";
import { type ConfigProblem, configProblems, formatPath, HierdocError, type ToolConfig, ToolConfigSchema } from "@hierdoc/core";

/** Reads environment variables for `${VAR}` interpolation; injected so only apps touch `process.env`. */
export type EnvLookup = (name: string) => string | undefined;

/** A config problem with the file line it points at, when known. */
export interface LocatedProblem extends ConfigProblem {
  line?: number;
}

/** Options of {@link loadToolConfig}. */
export interface LoadToolConfigOptions {
  /** File name used in messages. */
  file: string;
  /** Tool name to pick from an agent.yaml; required when the file holds several hierarchical_document tools. */
  tool?: string;
  env?: EnvLookup;
  /**
   * Extra checks of the validated entry (the runtime checks `vector_store` against its store's schema);
   * problem paths are relative to the tool entry and reported with their file line like schema problems.
   */
  check?: (config: ToolConfig) => ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

/**
 * Keys whose values `redactConfig` hides: credentials of any provider block (`api_key`, a Cosmos `key`, a MongoDB
 * `connection_string`, `authorization` headers) and any key ending in `_key`, `_token`, `_secret` or `_password`.
 */
const SECRET_KEYS = new Set(["api_key", "key", "password", "token", "secret", "connection_string", "authorization", "credentials"]);
const SECRET_SUFFIX = /_(key|token|secret|password)$/i;

/** Whether a config key names a credential. */
function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase()) || SECRET_SUFFIX.test(key);
}

/**
 * Parses a whole agent.yaml (or a single tool entry) and returns the validated
 * `type: hierarchical_document` tool entry, with `${ENV_VAR}` references replaced.
 * @throws HierdocError E_CONFIG listing every problem as `file:line: yaml.path: message`.
 */
export function loadToolConfig(text: string, options: LoadToolConfigOptions): ToolConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => ({
      path: "(yaml)",
      message: e.message.split("\n")[0],
      line: lineCounter.linePos(e.pos[0]).line,
    }));
    throw configError(options.file, problems);
  }
  const root: unknown = doc.toJS();
  const problems: LocatedProblem[] = [];
  const lineOf = (path: ReadonlyArray<PropertyKey>): number | undefined => {
    let node: unknown = doc.contents;
    let last: Node | undefined;
    for (const key of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
        last = (pair?.key as Node | undefined) ?? last;
        node = pair?.value;
      } else if (isSeq(node) && typeof key === "number") {
        node = node.items[key];
        last = (node as Node | undefined) ?? last;
      } else break;
    }
    const range = (last ?? (doc.contents as Node | null))?.range;
    return range ? lineCounter.linePos(range[0]).line : undefined;
  };

  let entry: unknown;
  let basePath: PropertyKey[] = [];
  if (isRecord(root) && Array.isArray(root.tools)) {
    const candidates = root.tools
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => isRecord(t) && t.type === "hierarchical_document");
    const picked = options.tool
      ? candidates.filter(({ t }) => isRecord(t) && t.name === options.tool)
      : candidates;
    if (picked.length === 0) {
      const names = candidates.map(({ t }) => String((t as Record<string, unknown>).name)).join(", ") || "none";
      const what = options.tool ? `no hierarchical_document tool named "${options.tool}"` : "no hierarchical_document tool";
      throw configError(options.file, [{ path: "tools", message: `${what} (found: ${names})`, line: lineOf(["tools"]) }]);
    }
    if (picked.length > 1) {
      const names = picked.map(({ t }) => String((t as Record<string, unknown>).name)).join(", ");
      throw configError(options.file, [
        { path: "tools", message: `several hierarchical_document tools (${names}): choose one with --tool NAME`, line: lineOf(["tools"]) },
      ]);
    }
    entry = picked[0].t;
    basePath = ["tools", picked[0].i];
  } else if (isRecord(root)) {
    entry = root;
  } else {
    throw configError(options.file, [{ path: "(root)", message: "expected a mapping with a `tools` list or one tool entry" }]);
  }

  const interpolated = interpolate(entry, basePath, options.env ?? (() => undefined), problems, lineOf);
  const parsed = ToolConfigSchema.safeParse(interpolated);
  if (!parsed.success) {
    const messages = configProblems(parsed.error);
    parsed.error.issues.forEach((issue, i) => {
      const full = [...basePath, ...issue.path];
      problems.push({ path: formatPath(full), message: messages[i].message, line: lineOf(full) });
    });
  }
  if (parsed.success && options.check) {
    for (const p of options.check(parsed.data as ToolConfig)) {
      const full = [...basePath, ...p.path];
      problems.push({ path: formatPath(full), message: p.message, line: lineOf(full) });
    }
  }
  if (problems.length > 0) throw configError(options.file, problems);
  return parsed.data as ToolConfig;
}

/** Returns a copy of a config with secret values replaced by `***`, safe to print or log. */
export function redactConfig<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => redactConfig(v)) as T;
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecretKey(k) && v != null ? "***" : redactConfig(v);
    return out as T;
  }
  return value;
}

function interpolate(
  value: unknown,
  path: PropertyKey[],
  env: EnvLookup,
  problems: LocatedProblem[],
  lineOf: (p: ReadonlyArray<PropertyKey>) => number | undefined,
): unknown {
  if (typeof value === "string") {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const v = env(name);
      if (v === undefined) {
        problems.push({ path: formatPath(path), message: `environment variable ${name} is not set`, line: lineOf(path) });
        return "";
      }
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, [...path, i], env, problems, lineOf));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolate(v, [...path, k], env, problems, lineOf);
    return out;
  }
  return value;
}

function configError(file: string, problems: LocatedProblem[]): HierdocError {
  const lines = problems.map((p) => `${file}${p.line ? `:${p.line}` : ""}: ${p.path}: ${p.message}`);
  return new HierdocError("E_CONFIG", `invalid configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n  ${lines.join("\n  ")}`, {
    details: { file, problems },
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
