// The search page in a real browser (Debian's Chromium driven by playwright-core) over the GDPR.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Page } from "playwright-core";
import { startServer, type RunningServer } from "@hierdoc/server";
import type { HierarchicalDocumentTool } from "@hierdoc/tool";
import { browserSkipReason, launchBrowser, watchErrors, type TestBrowser } from "./browser.js";
import { call, openTool, PACKAGE_DIR } from "./helpers.js";
import { ensureUiBuilt } from "./ui-build.js";

const GDPR = resolve(PACKAGE_DIR, "../../../shared/corpora/gdpr/gdpr_2016_679.md");
/** Screenshots of this run (git-ignored). */
const SHOTS = join(PACKAGE_DIR, "test-results/search-page");
/** Set to refresh the README's screenshot (docs/search-page.png). */
const README_SHOT = process.env.HIERDOC_UPDATE_SCREENSHOT ? resolve(PACKAGE_DIR, "../../docs/search-page.png") : undefined;

const skip = browserSkipReason() ?? (existsSync(GDPR) ? undefined : "the GDPR corpus (../shared/corpora) is not present");
const suite = skip ? describe.skip : describe;

/** Fails with the step's name when `promise` takes longer than `ms` (a hook timeout would not say which step hung). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

suite(`the search page in Chromium on the GDPR${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let dir: string;
  let tool: HierarchicalDocumentTool;
  let server: RunningServer;
  let browser: TestBrowser | undefined;

  beforeAll(async () => {
    ensureUiBuilt();
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), "hierdoc-page-"));
    tool = await openTool(join(dir, "index"));
    await within(60_000, "ingesting the GDPR", tool.ingest([GDPR]));
    server = await startServer({ tool, closeTool: false });
    // One search through the API first, as any earlier use of a running server would: the page's timing then
    // measures the page and a query, not the JIT warming up the search path of a fresh process.
    expect((await call(`${server.url}/search`, { json: { query: "supervisory authority" } })).status).toBe(200);
    // launchBrowser() fails after 60 s and then kills whatever it started.
    browser = await launchBrowser();
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await tool?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  async function open(path: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser!.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}${path}`);
    return { page, errors };
  }

  it("search → open section → follow a cross-reference → see a definition; first results ≤ 500 ms after submit; no console errors", async () => {
    const { page, errors } = await open("/");
    try {
      await page.waitForSelector(".intro");
      await page.fill("#q", "right to erasure");
      // Timed in the page: from the submit event to the first painted frame that shows a result.
      await page.evaluate(() => {
        const w = window as unknown as { searchMs?: number };
        document.addEventListener("submit", () => {
          const t0 = performance.now();
          const seen = new MutationObserver(() => {
            const r = document.querySelector(".results .result");
            if (r && r.checkVisibility()) {
              seen.disconnect();
              requestAnimationFrame(() => (w.searchMs = performance.now() - t0));
            }
          });
          seen.observe(document.body, { childList: true, subtree: true });
        }, { capture: true, once: true });
      });
      const t0 = Date.now();
      await page.press("#q", "Enter");
      await page.locator(".results .result").first().waitFor({ state: "visible" });
      const outsideMs = Date.now() - t0;
      const pageMs = await page.waitForFunction(() => (window as unknown as { searchMs?: number }).searchMs).then((h) => h.jsonValue() as Promise<number>);
      process.stdout.write(
        `search page: first results visible ${Math.round(pageMs)} ms after submit in the page (${outsideMs} ms seen from the test process); ${await page.locator(".meta").textContent()}\n`,
      );
      expect(pageMs).toBeLessThanOrEqual(500);

      const first = page.locator(".results .result").first();
      await expect(first.locator(".sid").textContent()).resolves.toBe("Article 17");
      await expect(first.locator(".crumbs").textContent()).resolves.toMatch(/CHAPTER III — Rights of the data subject.*Section 3 — Rectification and erasure/);
      const marks = await first.locator("mark").allTextContents();
      expect(marks.map((m) => m.toLowerCase())).toEqual(expect.arrayContaining(["erasure"]));
      // Per-leg scores on demand.
      await expect(first.locator(".legs table").isVisible()).resolves.toBe(false);
      await first.locator(".legs summary").click();
      const legs = await first.locator(".legs tbody tr th").allTextContents();
      expect(legs).toEqual(expect.arrayContaining(["Keyword (BM25)", "Semantic (dense vectors)", "Fused (RRF)"]));
      // The definition of a defined term the chunk uses, on hover.
      await first.locator(".term-chip", { hasText: "personal data" }).hover();
      await page.locator("#popover:not([hidden])").waitFor();
      await expect(page.locator("#popover").textContent()).resolves.toMatch(/‘personal data’ means any information relating to an identified or identifiable natural person.*Defined in Article 4\(1\)/s);
      await page.screenshot({ path: join(SHOTS, "1-results.png") });
      await page.keyboard.press("Escape");
      await expect(page.locator("#popover").isHidden()).resolves.toBe(true);

      // Keyboard: "/" focuses the box, ↓ selects the first result, Enter opens it.
      await page.locator("body").click({ position: { x: 5, y: 400 } });
      await page.keyboard.press("/");
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("q");
      await page.keyboard.press("ArrowDown");
      await expect(page.evaluate(() => document.activeElement?.closest(".result")?.querySelector(".sid")?.textContent)).resolves.toBe("Article 17");
      await page.keyboard.press("j");
      await expect(page.evaluate(() => document.querySelector(".result.selected")?.getAttribute("data-index"))).resolves.toBe("1");
      await page.keyboard.press("k");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/s\/Article%2017\?q=right/);
      await page.locator("article.section h1").waitFor();
      await expect(page.locator("article.section h1").textContent()).resolves.toBe("Article 17 — Right to erasure (‘right to be forgotten’)");
      await expect(page.locator(".section .crumbs").textContent()).resolves.toMatch(/Section 3 — Rectification and erasure/);
      await expect(page.locator(".outline [aria-current=page]").textContent()).resolves.toMatch(/^Article 17 — /);
      await expect(page.locator(".outline details[open] > summary").textContent()).resolves.toMatch(/CHAPTER III/);
      await expect(page.locator(".prose mark").count()).resolves.toBeGreaterThan(0);
      await expect(page.locator(".pager .prev").textContent()).resolves.toMatch(/Article 16/);
      await expect(page.locator(".pager .next").textContent()).resolves.toMatch(/Article 18/);
      // The references panel fills in after the section is shown.
      await page.locator(".refs:not([aria-busy])").waitFor();
      const refs = (await call(`${server.url}/refs/${encodeURIComponent("Article 17")}`)).body;
      await expect(page.locator(".refs .incoming li").count()).resolves.toBe(new Set(refs.incoming.map((x: { from_section_id: string; text: string }) => `${x.from_section_id} ${x.text}`)).size);
      await page.screenshot({ path: join(SHOTS, "2-section.png") });

      // Follow a cross-reference to the unit it cites.
      await page.locator("a.xref", { hasText: "point (a) of Article 6(1)" }).click();
      await page.waitForURL(/\/s\/Article%206\(1\)\(a\)$/);
      await page.locator("article.section h1", { hasText: "Article 6" }).waitFor();
      await expect(page.locator("article.section h1").textContent()).resolves.toBe("Article 6 — Lawfulness of processing");
      await expect(page.locator(".unit-target").textContent()).resolves.toMatch(/^\(a\) the data subject has given consent/);
      await expect(page.locator(".unit-target").isVisible()).resolves.toBe(true);
      await expect(page.locator(".refs .incoming").textContent()).resolves.toMatch(/Article 83/);

      // See a definition: click the marked term in the cited point.
      await page.locator(".unit-target a.term", { hasText: "consent" }).click();
      await page.locator("#popover:not([hidden])").waitFor();
      await expect(page.locator("#popover").textContent()).resolves.toMatch(/‘consent’ of the data subject means any freely given.*Defined in Article 4\(11\)/s);
      await page.screenshot({ path: join(SHOTS, "3-definition.png") });
      // From the keyboard: Enter on a term moves focus into its definition, Escape closes it and returns focus.
      await page.keyboard.press("Escape");
      await page.locator("#popover").waitFor({ state: "hidden" });
      await page.locator(".unit-target a.term", { hasText: "personal data" }).focus();
      await page.keyboard.press("Enter");
      // The definition is fetched after Enter: wait for this term's popover, not the one that just closed.
      await page.locator("#popover:not([hidden]) .pop-term", { hasText: "personal data" }).waitFor();
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("popover");
      await expect(page.locator("#popover .pop-term").textContent()).resolves.toBe("personal data");
      await page.keyboard.press("Escape");
      await expect(page.locator("#popover").isHidden()).resolves.toBe(true);
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe("personal data");
      if (README_SHOT) await page.screenshot({ path: README_SHOT });

      // Back returns to the search results.
      await page.goBack();
      await page.goBack();
      await page.locator(".results .result").first().waitFor();
      await expect(page.inputValue("#q")).resolves.toBe("right to erasure");
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("filters and modes reach the API: chunk type, section prefix, document, exact mode", async () => {
    const { page, errors } = await open("/");
    try {
      await page.locator("#filters summary").click();
      await page.selectOption("#type", "definition");
      await page.fill("#q", "personal data");
      await page.press("#q", "Enter");
      await page.locator(".results .result").first().waitFor();
      const types = await page.locator(".results .type").allTextContents();
      expect(types.length).toBeGreaterThan(0);
      expect(new Set(types)).toEqual(new Set(["definition"]));
      expect(page.url()).toMatch(/type=definition/);

      await page.selectOption("#type", "");
      await page.fill("#prefix", "Article 3");
      await page.press("#q", "Enter");
      await page.waitForURL(/prefix=Article\+3/);
      await page.locator(".results .result").first().waitFor();
      const ids = await page.locator(".results .sid").allTextContents();
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(id).toMatch(/^Article 3\d*\b/);

      await page.fill("#prefix", "");
      const docs = await page.locator("#doc option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(docs).toEqual(["", GDPR]);
      await page.selectOption("#doc", GDPR);
      await page.selectOption("#mode", "exact");
      await page.fill("#q", "Article 17");
      await page.press("#q", "Enter");
      await page.waitForURL(/mode=exact/);
      await page.locator(".results .result").first().waitFor();
      await expect(page.locator(".results .sid").first().textContent()).resolves.toBe("Article 17");
      await expect(page.locator(".meta").textContent()).resolves.toMatch(/· exact ·/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("a result inside a long section (the recitals) opens the section at that passage", async () => {
    const { page, errors } = await open(`/?q=${encodeURIComponent("consent of a child")}`);
    try {
      const recital = page.locator(".results .result", { has: page.locator(".sid", { hasText: /^Recitals$/ }) }).first();
      await recital.waitFor();
      const snippetWords = ((await recital.locator(".snippet").textContent()) ?? "").replace(/^… /, "").split(" ").slice(0, 8).join(" ");
      await recital.locator(".result-link").click();
      await page.locator(".chunk-target").waitFor();
      expect(page.url()).toMatch(/\/s\/Recitals\?q=consent.*&at=/);
      const inView = await page.locator(".chunk-target").evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight;
      });
      expect(inView).toBe(true);
      await expect(page.evaluate(() => window.scrollY)).resolves.toBeGreaterThan(1000);
      const passage = (await page.locator(".prose .in-chunk").allTextContents()).join(" ").replace(/\s+/g, " ");
      expect(passage).toContain(snippetWords.replace(/\s+/g, " "));
      await expect(page.locator(".prose .in-chunk mark").count()).resolves.toBeGreaterThan(0);
      await page.screenshot({ path: join(SHOTS, "4-passage.png") });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("every interactive element is reachable with Tab: results, a section, definitions, index", async () => {
    const { page, errors } = await open(`/?q=${encodeURIComponent("data protection officer")}`);
    try {
      const steps: Array<[string, string, string, number]> = [
        ["results", "", ".results .result", 40],
        ["section", `/s/${encodeURIComponent("Article 37")}`, "article.section h1", 15],
        ["terms", "/terms", ".def-entry", 25],
        ["info", "/info", ".cards", 8],
      ];
      for (const [step, path, ready, atLeast] of steps) {
        if (path) await page.goto(`${server.url}${path}`);
        await page.locator(ready).first().waitFor();
        // Open the filters so their fields are walked too (elements inside closed <details> are not focusable, by design).
        await page.locator("#filters").evaluate((d) => ((d as HTMLDetailsElement).open = true));
        const ids = await page.evaluate(() => {
          const sel = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
          const all = [...document.querySelectorAll<HTMLElement>(sel)].filter((el) => {
            const r = el.getBoundingClientRect();
            return !(el as HTMLButtonElement).disabled && r.width > 0 && r.height > 0 && el.checkVisibility({ checkVisibilityCSS: true, contentVisibilityAuto: true });
          });
          all.forEach((el, i) => el.setAttribute("data-walk", String(i)));
          return all.map((_, i) => String(i));
        });
        expect(ids.length).toBeGreaterThan(atLeast);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        const reached = new Set<string>();
        for (let i = 0; i < ids.length + 5; i++) {
          await page.keyboard.press("Tab");
          const id = await page.evaluate(() => document.activeElement?.getAttribute("data-walk") ?? null);
          if (id) reached.add(id);
        }
        const missed = ids.filter((id) => !reached.has(id));
        const describe = await page.evaluate((m) => m.map((id) => document.querySelector(`[data-walk="${id}"]`)?.outerHTML.slice(0, 120)), missed);
        expect(describe).toEqual([]);
        await page.screenshot({ path: join(SHOTS, `4-tab-walk-${step}.png`) });
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("definitions index and index statistics agree with the API", async () => {
    const { page, errors } = await open("/terms");
    try {
      const defs = (await call(`${server.url}/definitions`)).body;
      await page.locator(".def-entry").first().waitFor();
      await expect(page.locator(".def-entry").count()).resolves.toBe(defs.count);
      await page.fill("#term-filter", "breach");
      await expect(page.locator(".def-entry:visible dt").allTextContents()).resolves.toEqual(["personal data breach"]);
      await page.screenshot({ path: join(SHOTS, "5-definitions.png") });
      await page.locator("a[href='/info']").click();
      await page.locator(".cards").waitFor();
      const stats = (await call(`${server.url}/stats`)).body;
      await expect(page.locator(".card-value").allTextContents()).resolves.toEqual([stats.files, stats.chunks, stats.definitions, stats.keyword_docs].map((n: number) => n.toLocaleString("en")));
      await expect(page.locator("table.docs tbody tr").count()).resolves.toBe(1);
      await page.screenshot({ path: join(SHOTS, "6-index.png") });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("is readable on a phone: no sideways scrolling, outline folded away, definitions in a sheet", async () => {
    const { page, errors } = await open(`/?q=${encodeURIComponent("consent of a child")}`);
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.locator(".results .result").first().waitFor();
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SHOTS, "7-phone-results.png") });
      await page.goto(`${server.url}/s/${encodeURIComponent("Article 8")}`);
      await page.locator("article.section h1").waitFor();
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await expect(page.locator(".outline").isVisible()).resolves.toBe(false);
      const size = await page.locator(".prose p").first().evaluate((p) => parseFloat(getComputedStyle(p).fontSize));
      expect(size).toBeGreaterThanOrEqual(15);
      await page.locator("a.term").first().click();
      const box = await page.locator("#popover:not([hidden])").boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      await page.screenshot({ path: join(SHOTS, "8-phone-section.png") });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
