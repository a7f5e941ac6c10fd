// The one Chromium every browser check shares: launched on first use, closed after it has been idle a while (and by
// closeBrowser() at shutdown), with at most MAX_PAGES checks in it at once; the others wait their turn, each within its
// own time limit. A browser that crashes is launched afresh by the next check.
import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";
import { DISABLE_FEATURES } from "./chromium-features";

/** Checks running in the browser at once; the rest queue. Two keeps a small server's CPU and memory in hand. */
export const MAX_PAGES = 2;
/** Closed this long after the last check finished: checks every minute or so keep it, a rare one does not. */
const IDLE_MS = 5 * 60_000;

/**
 * The memory guard: each renderer's JavaScript heap is capped (a runaway page fails alone instead of swapping the
 * server), renderers are at most MAX_PAGES processes, /dev/shm (often 64 MB in containers) is not used, no GPU process.
 */
export const CHROMIUM_ARGS = [
  "--js-flags=--max-old-space-size=256",
  `--renderer-process-limit=${MAX_PAGES}`,
  "--disable-dev-shm-usage",
  "--disable-gpu",
  "--disable-extensions",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--mute-audio",
  DISABLE_FEATURES,
  // WebRTC's UDP would go around the checks' proxy (guard.ts), to any address.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

export const chromiumPath = (): string => process.env.VIGIL_CHROMIUM_PATH || "/usr/bin/chromium";
export const hasChromium = (): boolean => existsSync(chromiumPath());

let browser: Promise<Browser> | null = null;
let launches = 0;
let active = 0;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
const waiting: (() => void)[] = [];

function launch(): Promise<Browser> {
  launches++;
  // playwright-core is loaded on the first browser check, not at start-up (it costs tens of MB).
  const { chromium } = require("playwright-core") as typeof import("playwright-core");
  const started = chromium.launch({
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    // Chromium's sandbox cannot start as root; anyone else keeps it (pages are other people's code).
    chromiumSandbox: process.getuid?.() !== 0,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const current = started.then((b) => {
    b.on("disconnected", () => {
      if (browser === current) browser = null;
    });
    return b;
  });
  current.catch(() => {
    if (browser === current) browser = null;
  });
  return current;
}

/** How many times a browser was launched (tests: two checks at once share one). */
export const browserLaunches = (): number => launches;

/**
 * A turn in the browser: waits for one of the MAX_PAGES places (giving up when `signal` aborts), launches the browser
 * if needed. `release` must be called once the check's context is closed.
 */
export async function acquire(signal: AbortSignal): Promise<{ browser: Browser; release: () => void }> {
  if (active < MAX_PAGES) active++;
  else {
    // A place is handed over by the check leaving it (release), so no newcomer can slip in between.
    await new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const turn = () => {
        signal.removeEventListener("abort", give);
        resolve();
      };
      const give = () => {
        waiting.splice(waiting.indexOf(turn), 1);
        reject(signal.reason);
      };
      waiting.push(turn);
      signal.addEventListener("abort", give, { once: true });
    });
  }
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) return next();
    active--;
    if (active === 0) {
      idleTimer = setTimeout(() => void closeBrowser(), IDLE_MS);
      idleTimer.unref?.();
    }
  };
  try {
    browser ??= launch();
    return { browser: await browser, release };
  } catch (e) {
    release();
    throw e;
  }
}

/** Closes the shared browser (shutdown, or idle); the next check launches it again. */
export async function closeBrowser(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const current = browser;
  browser = null;
  if (!current) return;
  await current.then((b) => b.close()).catch(() => {});
}
