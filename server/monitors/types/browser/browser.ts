// The browser check type: loads the page in a real Chromium (playwright-core), optionally walks a short scripted path
// (click, fill, press, waitFor), then waits for a selector to be visible and a text to be on the page. Each check has
// its own context (no cookies or storage shared), every request the page makes goes through the address policy
// (guard.ts: a judging proxy per check), the browser is shared (pool.ts). Response time: from the start of the load to the last assertion.
// A failed check returns a PNG screenshot of the page in `screenshot` (the caller stores it with the check).
import type { Static } from "@sinclair/typebox";
import type { BrowserContext, Page } from "playwright-core";
import { badRequest } from "../../../http/http-error";
import { literalProblem } from "../../../net/targets";
import {
  CHECK_ERROR_TEXT,
  keywordMissingError,
  pageFailedError,
  protocolError,
  selectorMissingError,
  statusError,
  timeoutError,
} from "../../check-errors";
import { scrub, secretValues, type SettingsCheckContext, type SettingsCheckResult, type SettingsCheckType } from "../settings-type";
import { reachHost } from "../reach";
import { startGuard, type Guard } from "./guard";
import { acquire, closeBrowser, hasChromium } from "./pool";
import { browserSettings } from "./settings";

export type BrowserSettings = Static<typeof browserSettings>;
export interface BrowserCheckResult extends SettingsCheckResult {
  /** The page as it was when the check failed (PNG, 1280×720), when one could be taken. */
  screenshot?: Uint8Array;
}

/** How long one step or assertion waits for its element or text at most (within the check's own limit). */
const WAIT_MS = 5_000;
const SECRET_PLACEHOLDER = "{{secret}}";

/** A URL's host without IPv6 brackets, or null when it does not parse. */
const hostOf = (url: string): string | null => {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return null;
  }
};
const firstLine = (e: unknown) => String((e as Error)?.message ?? e).split("\n")[0]!.replace(/^\w+\.\w+: /, "");
const isTimeout = (e: unknown) => (e as Error)?.name === "TimeoutError";

/**
 * The page's verdict: null when every step and assertion passed, else the sentence. `blocked` tells why the main
 * document's request failed in the check's proxy (refused by the policy, or the site's connection failed), if it did.
 * A step or assertion whose element or text does not come within its wait is "not found", not a timeout.
 */
async function walk(page: Page, s: BrowserSettings, left: () => number, blocked: () => string | null, seconds: number): Promise<string | null> {
  const wait = () => Math.max(1, Math.min(WAIT_MS, left()));
  let status: number | undefined;
  try {
    status = (await page.goto(s.url, { waitUntil: "load", timeout: Math.max(1, left()) }))?.status();
  } catch (e) {
    return blocked() ?? (isTimeout(e) ? timeoutError(seconds) : pageFailedError(firstLine(e)));
  }
  if (status !== undefined && status >= 400) return blocked() ?? statusError(status, "2xx,3xx");
  for (const step of s.steps) {
    const target = page.locator(step.selector).first();
    const value = step.value === SECRET_PLACEHOLDER ? s.secret : step.value;
    try {
      if (step.action === "click") await target.click({ timeout: wait() });
      else if (step.action === "fill") await target.fill(value, { timeout: wait() });
      else if (step.action === "press") await target.press(value, { timeout: wait() });
      else await target.waitFor({ state: "visible", timeout: wait() });
    } catch (e) {
      return blocked() ?? (isTimeout(e) ? selectorMissingError(step.selector) : pageFailedError(firstLine(e)));
    }
  }
  // A step may have navigated (a form sent, a link followed) to where the policy or the network said no.
  if (blocked()) return blocked();
  if (s.selector) {
    try {
      await page.locator(s.selector).first().waitFor({ state: "visible", timeout: wait() });
    } catch (e) {
      return isTimeout(e) ? selectorMissingError(s.selector) : pageFailedError(firstLine(e));
    }
  }
  if (s.keyword) {
    try {
      await page.waitForFunction((k) => document.body?.innerText.includes(k) ?? false, s.keyword, { timeout: wait(), polling: 100 });
    } catch (e) {
      return isTimeout(e) ? keywordMissingError(s.keyword) : pageFailedError(firstLine(e));
    }
  }
  return null;
}

async function checkBrowser(s: BrowserSettings, ctx: SettingsCheckContext): Promise<BrowserCheckResult> {
  const seconds = ctx.timeoutMs / 1000;
  const secrets = secretValues(browserSettings, s);
  const down = (error: string, more: Partial<BrowserCheckResult> = {}): BrowserCheckResult => ({ up: false, responseTime: null, ...more, error: scrub(error, secrets) });
  if (!hasChromium()) return down(CHECK_ERROR_TEXT.BROWSER_UNAVAILABLE);
  const started = performance.now();
  // The page's work ends before the limit, leaving time for the screenshot of what went wrong: a quarter of the limit,
  // up to 3 s. (1 s was not always enough on a busy two-core box: the failure then came without its screenshot.)
  const workEnd = started + ctx.timeoutMs - Math.min(3_000, ctx.timeoutMs / 4);
  const left = () => workEnd - performance.now();
  const timer = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timer]);
  const aborted = () =>
    timer.aborted || (ctx.signal.reason as Error | undefined)?.name === "TimeoutError" ? timeoutError(seconds) : CHECK_ERROR_TEXT.CANCELLED;

  const host = hostOf(s.url);
  if (host === null) return down(pageFailedError("the URL does not parse"));
  const first = await reachHost(host, ctx.policy, ctx.resolve);
  if (first.error !== undefined) return down(first.error);

  let turn: Awaited<ReturnType<typeof acquire>>;
  try {
    turn = await acquire(signal);
  } catch (e) {
    return down(signal.aborted ? aborted() : protocolError("Chromium", `did not start: ${firstLine(e)}`));
  }
  let context: BrowserContext | null = null;
  let guard: Guard | null = null;
  // At the limit (or when the scheduler stops) the context goes, and with it whatever the page was waiting for.
  const stop = () => void context?.close().catch(() => {});
  signal.addEventListener("abort", stop, { once: true });
  try {
    guard = await startGuard(ctx.policy, ctx.resolve, seconds);
    context = await turn.browser.newContext({ proxy: guard.proxy, serviceWorkers: "block", acceptDownloads: false, viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    // The main document's last request (a redirect hop included): what the proxy says of its host is the verdict.
    let navigation = s.url;
    page.on("request", (r) => {
      try {
        if (r.isNavigationRequest() && r.frame() === page.mainFrame()) navigation = r.url();
      } catch {
        // A worker's request has no frame.
      }
    });
    const blocked = () => guard?.problem(hostOf(navigation) ?? "") ?? null;
    const loadStarted = performance.now();
    const error = await walk(page, s, left, blocked, seconds);
    const responseTime = Math.max(0, Math.round(performance.now() - loadStarted));
    if (!error) return { up: true, responseTime, error: null };
    const shot = signal.aborted ? null : await page.screenshot({ type: "png", timeout: Math.max(1, ctx.timeoutMs - (performance.now() - started) - 50) }).catch(() => null);
    return down(error, { responseTime: error.startsWith("timeout") ? null : responseTime, ...(shot ? { screenshot: new Uint8Array(shot) } : {}) });
  } catch (e) {
    return down(signal.aborted ? aborted() : pageFailedError(firstLine(e)));
  } finally {
    signal.removeEventListener("abort", stop);
    await context?.close().catch(() => {});
    guard?.close();
    turn.release();
  }
}

export const browserType: SettingsCheckType<typeof browserSettings> = {
  type: "browser",
  schema: browserSettings,
  runsOnAgents: false,
  close: closeBrowser,
  normalise(settings, policy) {
    const host = hostOf(settings.url);
    if (host === null) throw badRequest("INVALID_URL", "URL must start with http:// or https://, at most 2 048 characters");
    const problem = literalProblem(host, policy);
    if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
    if (settings.steps.some((step) => step.action === "press" && !step.value)) throw badRequest("INVALID_STEP", "A press step needs a key in its value (Enter, Tab, Control+A…)");
    if (settings.steps.some((step) => step.value === SECRET_PLACEHOLDER) && !settings.secret) {
      throw badRequest("INVALID_STEP", `A step types ${SECRET_PLACEHOLDER}, but no secret is set`);
    }
    return { ...settings, url: new URL(settings.url).href };
  },
  check: checkBrowser,
  target: (s) => s.url,
  unavailable: () => (hasChromium() ? null : "noChromium"),
};
