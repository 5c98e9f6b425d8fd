import { z } from "zod";
import type { StoreCapabilities, VectorStoreAdapter } from "./interfaces.js";

/** What a store factory gets besides its own config: where the index lives and how to read the environment. */
export interface StoreContext {
  /** The index folder (`--index DIR`, default `./.hierdoc`); file-backed stores default their `path` under it. */
  readonly indexDir: string;
  /** Reads an environment variable (apps pass `(name) => process.env[name]`); used for documented defaults such as `DATABASE_URL`. */
  readonly env: (name: string) => string | undefined;
}

/** One YAML key of a store's `vector_store` block, for docs and the README store table. */
export interface StoreConfigKey {
  readonly key: string;
  readonly required: boolean;
  readonly description: string;
  /** The key holds a secret: write it as `${ENV_VAR}`; it is never logged nor stored in the manifest. */
  readonly secret?: boolean;
}

/**
 * How the runtime finds, validates and opens one store adapter. Each adapter package exports one from its
 * `./descriptor` entry, which loads no driver: `create` imports the adapter (and its SDK) on first use.
 * The runtime's registry holds a list of these and never tests a provider name itself.
 */
export interface StoreDescriptor<C extends { provider: string } = { provider: string } & Record<string, unknown>> {
  /** `vector_store.provider` values; the first is the canonical name, the others aliases. */
  readonly providers: readonly [string, ...string[]];
  /** One-line description for docs and `--help`. */
  readonly description: string;
  /**
   * Validates the whole `vector_store` block (a strict object including `provider` and `path`); zod issues are
   * reported with their YAML path (`tools[0].vector_store.url`). Cross-field rules use `superRefine`.
   */
  readonly schema: z.ZodType<C>;
  /** The YAML keys a user writes, documented (README tables are checked against these). */
  readonly keys: readonly StoreConfigKey[];
  /**
   * Capabilities with the default config. The opened adapter's own `capabilities` are authoritative (a config
   * may switch a capability off, e.g. a store without a full-text index); the router reads the adapter's.
   */
  readonly capabilities: StoreCapabilities;
  /**
   * How this adapter is tested here: "real" (the real engine runs in CI), "wire" (the official client against a
   * local server speaking the service's wire format) or "driver-double" (no such server can be written here: the
   * driver's connection seam is replaced by a stand-in that executes the statements; the wire path is live-only).
   */
  readonly testedWith: "real" | "wire" | "driver-double";
  /** Environment variable that enables the live tests against a real service, if any. */
  readonly liveTestEnv?: string;
  /**
   * A minimal valid `vector_store` block (secrets as `${ENV}` references, local URLs), shown in the README and
   * used by the registry tests to open the adapter and compare its capabilities with {@link capabilities}.
   */
  readonly example: Readonly<Record<string, unknown>>;
  /**
   * Opens the adapter for a validated config. Loads the driver lazily.
   * @throws HierdocError E_CONFIG for settings only checkable at open time (naming `vector_store.<key>`).
   */
  create(config: C, context: StoreContext): Promise<VectorStoreAdapter>;
}

/** Identity helper that keeps a descriptor's config type while checking it against {@link StoreDescriptor}. */
export function defineStore<C extends { provider: string }>(descriptor: StoreDescriptor<C>): StoreDescriptor<C> {
  return Object.freeze(descriptor);
}

/** The zod shape of a store's own keys (everything but `provider`). */
export type StoreKeyShape = Record<string, z.ZodType>;

/** The strict `vector_store` schema {@link storeConfig} builds: `provider` (one of the names) plus the store's keys. */
export type StoreConfigSchema<S extends StoreKeyShape> = z.ZodObject<{ provider: z.ZodEnum<Record<string, string>> } & S, z.core.$strict>;

/**
 * A store's `vector_store` schema and its documented keys from one zod shape: each key's `.describe()` text
 * is its documentation, a key that accepts `undefined` is optional, and `.meta({ secret: true })` (see
 * {@link secretKey}) marks a secret. Use it in a descriptor so the schema and the README cannot disagree.
 */
export function storeConfig<S extends StoreKeyShape>(providers: readonly [string, ...string[]], shape: S): { schema: StoreConfigSchema<S>; keys: StoreConfigKey[] } {
  const schema = z.strictObject({ provider: z.enum(providers as [string, ...string[]]), ...shape }) as unknown as StoreConfigSchema<S>;
  const keys = Object.entries(shape).map(([key, type]) => ({
    key,
    required: !type.safeParse(undefined).success,
    description: type.description ?? "",
    ...((type.meta() as { secret?: boolean } | undefined)?.secret ? { secret: true } : {}),
  }));
  return { schema, keys };
}

/** A non-empty string key the store cannot work without; a missing one reads `vector_store.KEY: required for PROVIDER`. */
export function requiredFor(provider: string, description: string): z.ZodString {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `required for ${provider}` : "expected a string") })
    .min(1, `required for ${provider}`)
    .describe(description);
}

/** A URL with a user name or password in it (`https://user:pw@host`). */
const CREDENTIALS_IN_URL = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*@/i;

/**
 * The address of a store's service (`url`, `host`, `endpoint`): required (`required for PROVIDER`) when
 * `requiredBy` names the store, else optional. A URL carrying credentials is refused, so error messages
 * that name the address never repeat a secret: credentials go in `api_key` / `password`, written as `${ENV_VAR}`.
 */
export function serviceUrl(description: string, requiredBy: string): z.ZodString;
export function serviceUrl(description: string): z.ZodOptional<z.ZodString>;
export function serviceUrl(description: string, requiredBy?: string): z.ZodString | z.ZodOptional<z.ZodString> {
  const base = (requiredBy ? requiredFor(requiredBy, description) : z.string().min(1)).refine(
    (v) => !CREDENTIALS_IN_URL.test(v),
    "credentials do not belong in the URL: use api_key (or username / password) written as ${ENV_VAR}",
  );
  return requiredBy ? base.describe(description) : base.optional().describe(description);
}

/** An optional secret string key (API key, password, connection string with credentials): write it as `${ENV_VAR}`. */
export function secretKey(description: string): z.ZodOptional<z.ZodString> {
  return z.string().min(1).optional().describe(`${description}; write it as \${ENV_VAR}`).meta({ secret: true });
}

/**
 * `timeout_seconds`: the time limit of one request to the service (default `defaultSeconds`, 1–120), kept
 * short by default so a service that is down fails fast (E_STORE_UNAVAILABLE).
 */
export function storeTimeout(defaultSeconds = 10): z.ZodDefault<z.ZodNumber> {
  return z.number().min(1).max(120).default(defaultSeconds).describe(`Time limit of one request in seconds (default ${defaultSeconds})`);
}

/**
 * The URL of a service with any user name, password or token in it removed, for error messages and logs
 * (`https://user:pw@host:9200/x?api_key=…` → `https://host:9200/x`).
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    u.search = "";
    u.hash = "";
    return u.toString().replace(/\/$/, "");
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//").replace(/\?.*$/, "");
  }
}
