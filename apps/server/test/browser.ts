import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Debian's Chromium (`apt-get install chromium`), or `HIERDOC_CHROMIUM`. */
export const CHROMIUM = process.env.HIERDOC_CHROMIUM || "/usr/bin/chromium";

/** Flags known to work here (headless, no sandbox as root in a container, no background network). */
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A Chromium started for one test file, with a fresh profile; `close()` always ends it. */
export interface TestBrowser {
  context: BrowserContext;
  /** Closes the browser; kills its processes (found by the unique profile folder) if closing hangs. */
  close(): Promise<void>;
}

function pidsUsing(profile: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(profile)) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return pids;
}

/** Launches Chromium with a fresh user-data-dir and the given viewport. */
export async function launchBrowser(viewport = { width: 1280, height: 860 }): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "hierdoc-chromium-"));
  let context: BrowserContext | undefined;
  const close = async (): Promise<void> => {
    if (context) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([context.close().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, 10_000)))]);
      clearTimeout(timer);
    }
    for (const pid of pidsUsing(profile)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport, timeout: 60_000 });
  } catch (err) {
    await close();
    throw err;
  }
  return { context, close };
}

/** Whether the browser tests can run, and why not. */
export function browserSkipReason(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `Chromium not found at ${CHROMIUM} (apt-get install chromium)`;
}

/** Collects console errors, uncaught page errors, failed requests and HTTP errors of a page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ""}`));
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return errors;
}
