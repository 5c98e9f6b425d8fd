import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import { HttpError } from "./http-errors.js";

type Env = { Variables: { route: string } };

/** Paths of the search page itself; each serves `index.html` and the page's router draws the view. */
export const PAGE_ROUTES = ["/", "/s/*", "/terms", "/info"] as const;

/**
 * The Content-Security-Policy of the page and its assets: everything from this origin only, no inline
 * script or style, no framing, no plugins.
 */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".map": "application/json",
};

interface Asset {
  body: Uint8Array;
  type: string;
  etag: string;
}

/** The built page (`dist/ui`): `index.html` plus the files under `assets/`, held in memory. */
export class UiAssets {
  private constructor(
    readonly dir: string | undefined,
    private readonly files: Map<string, Asset>,
  ) {}

  /**
   * Loads the built page from `dir`, else from `dist/ui` next to this module (running from `dist`) or
   * beside `src` (running from the sources). A missing build loads nothing: the page routes answer 404.
   */
  static load(dir?: string): UiAssets {
    const candidates = dir ? [dir] : [fileURLToPath(new URL("./ui/", import.meta.url)), fileURLToPath(new URL("../dist/ui/", import.meta.url))];
    const found = candidates.find((d) => existsSync(join(d, "index.html")));
    const files = new Map<string, Asset>();
    if (found) {
      files.set("index.html", asset(join(found, "index.html")));
      const assets = join(found, "assets");
      if (existsSync(assets)) {
        for (const name of readdirSync(assets)) {
          if (TYPES[extname(name)] && extname(name) !== ".map") files.set(`assets/${name}`, asset(join(assets, name)));
        }
      }
    }
    return new UiAssets(found, files);
  }

  /** The asset at `name` (`index.html`, `assets/app.js`), if built. */
  get(name: string): Asset | undefined {
    return this.files.get(name);
  }
}

function asset(path: string): Asset {
  const body = readFileSync(path);
  return { body, type: TYPES[extname(path)] ?? "application/octet-stream", etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
}

function send(c: Context<Env>, file: Asset): Response {
  const headers: Record<string, string> = {
    "content-type": file.type,
    "content-security-policy": PAGE_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
    etag: file.etag,
  };
  if (c.req.header("if-none-match") === file.etag) return c.body(null, 304, headers);
  return c.body(file.body as Uint8Array<ArrayBuffer>, 200, headers);
}

/**
 * Serves the search page: `index.html` at {@link PAGE_ROUTES} and its script, styles and icon at
 * `/assets/NAME`, with {@link PAGE_CSP}. The page reads the same JSON API as any other client.
 */
export function registerUiRoutes(app: Hono<Env>, assets: UiAssets): void {
  for (const path of PAGE_ROUTES) {
    app.get(path, (c) => {
      c.set("route", path === "/s/*" ? "/s/:id" : path);
      const page = assets.get("index.html");
      if (!page) throw new HttpError(404, "E_NOT_FOUND", "the search page is not built (npm run build in apps/server)");
      return send(c, page);
    });
  }
  app.get("/assets/:name", (c) => {
    c.set("route", "/assets/:name");
    const file = assets.get(`assets/${c.req.param("name")}`);
    if (!file) throw new HttpError(404, "E_NOT_FOUND", "no such asset");
    return send(c, file);
  });
}
