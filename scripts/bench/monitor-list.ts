// npm run bench:list — the /monitors page in a real browser with thousands of monitors.
//
// For each size N: the executable (built into a temp dir from the current sources, or --binary) on 127.0.0.1 over a
// fresh data dir; N monitors created through the API — 70 % http against a local target, 15 % tcp to the same port,
// 10 % dns against a local DNS responder, 5 % push — a third of them tagged, at a 60-minute interval (the first check
// runs at creation; the page is measured, not the scheduler). Then Chromium (playwright-core, /usr/bin/chromium)
// opens /monitors, --runs times, and measures in the page:
//   - API reply: when the first GET /api/monitors/page reply ended (resource timing), from the start of navigation;
//   - first rows: when the first monitor rows were in the DOM and a frame later (painted), from the start of navigation;
//   - rows in the DOM and all DOM elements of the page (the list is windowed: only rows near the viewport exist);
//   - search: from the input event to the next frame after the rows changed (includes the 150 ms debounce);
//   - sort by name / response time: from the click to the next frame after the rows changed;
//   - live check: one check run through the API on a monitor in view; from its WebSocket message arriving to its row
//     changing in the DOM, and how many OTHER rows the DOM changed in (ticking "12s ago" texts excluded): 0 means
//     only the checked row re-rendered;
//   - burst: --burst checks of different monitors at once (most out of view); the longest frame meanwhile, and how
//     many of their messages reached the page (the server sends the checks of the rows the page holds only).
// Every step has a timeout, the whole run a deadline (--deadline seconds); the server, browser, target, DNS responder
// and temp dir are cleaned up whatever happens.
//
// --direct writes N http monitors (and N/50 groups) straight into the database at a 1-minute interval instead, and
// measures after 70 s while the server checks them all (how 100 000 is measured: creating them would take too long).
//
//   bun scripts/bench/monitor-list.ts [--sizes 1000,5000] [--runs 3] [--burst 500] [--binary dist/vigil]
//                                     [--deadline 900] [--keep] [--direct]
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { startDnsResponder, type DnsResponder } from "../../server/monitors/types/dns/responder";
import { countingTarget } from "./fixtures";
import { seedMonitors } from "./seed-monitors";
import { apiClient, mb, ROOT, startServer, type RunningServer } from "./proc";
import { DISABLE_FEATURES } from "../../server/monitors/types/browser/chromium-features";

const { values: args } = parseArgs({
  args: process.argv.slice(2),
  options: {
    sizes: { type: "string", default: "1000,5000" },
    runs: { type: "string", default: "3" },
    burst: { type: "string", default: "500" },
    binary: { type: "string" },
    deadline: { type: "string", default: "900" },
    keep: { type: "boolean", default: false },
    direct: { type: "boolean", default: false },
  },
});
/** Monitors written straight into the database (http at 1 minute, N/50 groups), checked while the page is measured. */
const direct = args.direct!;
const sizes = args.sizes!.split(",").map((s) => Number(s.trim().replace(/_/g, "")));
const runs = Number(args.runs);
const burst = Number(args.burst);
const deadlineS = Number(args.deadline);
if (sizes.some((n) => !Number.isInteger(n) || n < 10) || !(runs >= 1) || !(burst >= 0) || !(deadlineS > 0)) {
  console.error("usage: bun scripts/bench/monitor-list.ts [--sizes 1000,5000] [--runs 3] [--burst 500] [--binary dist/vigil] [--deadline 900]");
  process.exit(2);
}
const PASSWORD = "bench password 1";
const TAGS = ["prod", "staging", "eu-west", "us-east", "db", "api", "edge", "batch"];
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", DISABLE_FEATURES];

// ── Clean-up, whatever happens ──────────────────────────────────────────────────────────────────────────────────

const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        await fn();
      } catch {
        // keep cleaning
      }
    }
  })();
  return cleaning;
}
const deadline = setTimeout(() => {
  console.error(`deadline of ${deadlineS} s reached: stopping`);
  void cleanup().then(() => process.exit(1));
}, deadlineS * 1000);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanup().then(() => process.exit(130)));

/** Rejects after `ms`. */
function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no result after ${ms} ms`)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

// ── Setup ───────────────────────────────────────────────────────────────────────────────────────────────────────

const work = mkdtempSync(join(tmpdir(), "vigil-bench-list-"));
cleanups.push(() => {
  if (!args.keep) rmSync(work, { recursive: true, force: true });
});

async function binary(): Promise<string> {
  if (args.binary) {
    if (!existsSync(args.binary)) throw new Error(`no executable at ${args.binary}`);
    return resolve(args.binary);
  }
  const out = join(work, "build", "vigil");
  process.stderr.write("building the executable…\n");
  const build = Bun.spawn([process.execPath, join(ROOT, "scripts/build.ts"), "--no-agents", "--outfile", out, "--ui-outdir", join(work, "build", "ui")], {
    cwd: ROOT,
    stdout: "ignore",
    stderr: "inherit",
  });
  if ((await within("build", 180_000, build.exited)) !== 0) throw new Error("build failed");
  return out;
}

/** Runs `fn` over 0..n-1, `limit` at a time. */
async function pool(n: number, limit: number, fn: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

function monitorBody(i: number, targetPort: number, dnsPort: number) {
  const tags = i % 3 === 0 ? [TAGS[i % TAGS.length]!, TAGS[(i >> 3) % TAGS.length]!].filter((t, k, a) => a.indexOf(t) === k) : [];
  const name = `svc-${String(i).padStart(5, "0")} ${["checkout", "search", "auth", "billing", "media", "queue"][i % 6]}`;
  const common = { name, interval: 60, tags, retries: 0 };
  const kind = i % 20;
  if (kind < 14) return { ...common, url: `http://127.0.0.1:${targetPort}/m/${i}` };
  if (kind < 17) return { ...common, type: "tcp", host: "127.0.0.1", port: targetPort };
  if (kind < 19) return { ...common, type: "dns", host: `host${i}.bench.test`, dnsRecordType: "A", dnsResolver: `127.0.0.1:${dnsPort}` };
  return { ...common, type: "push" };
}

// ── In the page ─────────────────────────────────────────────────────────────────────────────────────────────────

declare global {
  interface Window {
    __firstRowAt?: number;
    __firstRowPaint?: number;
    __checkMessages?: [number, number][];
  }
}

/** Runs in every page before its scripts: notes when the first row appears and when check messages arrive. */
function initScript() {
  const ROW = '[data-testid^="monitor-row-"]';
  const observer = new MutationObserver(() => {
    if (window.__firstRowAt === undefined && document.querySelector(ROW)) {
      window.__firstRowAt = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => (window.__firstRowPaint = performance.now()), 0));
    }
  });
  observer.observe(document, { childList: true, subtree: true }); // no documentElement yet at this point
  window.__checkMessages = [];
  const Native = window.WebSocket;
  // A listener added in the constructor runs before the app's onmessage handler: the arrival time, before any work.
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener("message", (event) => {
        const at = performance.now();
        try {
          const message = JSON.parse(String(event.data));
          if (message.type === "monitor.check") window.__checkMessages!.push([message.data.monitorId, at]);
        } catch {
          // not JSON
        }
      });
    }
  } as typeof WebSocket;
}

/**
 * The ms from now until the rows of the list changed (after `act`), plus one frame; and when the list's call for it
 * started and ended (ms from now; NaN when none was made), which splits a search into debounce, server and page.
 */
async function timeRowsChange(page: Page, act: string): Promise<{ ms: number; asked: number; answered: number }> {
  return within(
    act,
    30_000,
    page.evaluate((act) => {
      const body = document.querySelector('[data-testid="monitors-table"] [role="rowgroup"]:last-child')!;
      const shown = document.querySelector('[data-testid="monitors-shown"]')!;
      if (!body || !shown) throw new Error(`no monitor table at ${location.href} (a search matched nothing?)`);
      return new Promise<{ ms: number; asked: number; answered: number }>((resolve) => {
        let t0 = 0;
        const done = (ms: number) => {
          const call = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
            .filter((e) => new URL(e.name).pathname === "/api/monitors/page" && e.startTime >= t0)
            .at(-1);
          resolve({ ms, asked: call ? call.startTime - t0 : NaN, answered: call ? call.responseEnd - t0 : NaN });
        };
        const observer = new MutationObserver(() => {
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
        });
        observer.observe(body, { childList: true });
        observer.observe(shown, { childList: true, characterData: true, subtree: true });
        // An action that changes nothing on screen (the same order) would never answer: NaN ("–") after 5 s.
        setTimeout(() => {
          observer.disconnect();
          done(NaN);
        }, 5000);
        performance.clearResourceTimings();
        t0 = performance.now();
        if (act.startsWith("search:")) {
          const input = document.querySelector<HTMLInputElement>('[data-testid="monitors-search"]')!;
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, act.slice(7));
          input.dispatchEvent(new Event("input", { bubbles: true }));
        } else if (act.startsWith("select:")) {
          const select = document.querySelector<HTMLSelectElement>('[data-testid="monitors-sort"]')!;
          Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value")!.set!.call(select, act.slice(7));
          select.dispatchEvent(new Event("change", { bubbles: true }));
        } else {
          document.querySelector<HTMLElement>(`[data-testid="${act.slice(6)}"]`)!.click();
        }
      });
    }, act),
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

async function measure(browser: Browser, server: RunningServer, session: { token: string; user: unknown }, n: number, listRows = n) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  cleanups.push(() => context.close());
  await context.addInitScript(initScript);
  const page = await context.newPage();
  // Main-thread task time (CDP Performance.TaskDuration): the page's own cost, which a busy machine's wall times blur.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskMs = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return (metrics.find((m) => m.name === "TaskDuration")?.value ?? NaN) * 1000;
  };
  /** Wall time of an action and the main-thread task time it cost. */
  const timed = async (act: string) => {
    const before = await taskMs();
    const { ms: wall, asked, answered } = await timeRowsChange(page, act);
    return { wall, task: (await taskMs()) - before, asked, answered };
  };
  const call = apiClient(server.base);
  await page.goto(`${server.base}/404-bootstrap`);
  await page.evaluate(({ token, user }) => {
    localStorage.setItem("token", token);
    localStorage.setItem("user", JSON.stringify(user));
  }, session);

  // Loading: --runs navigations (the first one also fetches the page's code; later ones have it cached).
  const loads: { api: number; rows: number; painted: number }[] = [];
  for (let r = 0; r < runs; r++) {
    await page.goto(`${server.base}/monitors`);
    await within("first rows", 60_000, page.waitForFunction(() => window.__firstRowPaint !== undefined, undefined, { polling: 20 }));
    loads.push(
      await page.evaluate(() => {
        const reply = performance.getEntriesByType("resource").find((e) => new URL(e.name).pathname === "/api/monitors/page") as PerformanceResourceTiming | undefined;
        return { api: reply?.responseEnd ?? NaN, rows: window.__firstRowAt!, painted: window.__firstRowPaint! };
      }),
    );
  }
  await page.waitForTimeout(500);
  const dom = await page.evaluate(() => ({
    rows: document.querySelectorAll('[data-testid^="monitor-row-"]').length,
    elements: document.getElementsByTagName("*").length,
    rowcount: Number(document.querySelector('[data-testid="monitors-table"]')?.getAttribute("aria-rowcount")),
    heap: (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0,
  }));
  if (dom.rowcount !== listRows + 1) throw new Error(`the table says ${dom.rowcount - 1} rows, expected ${listRows}`);

  // Search, then back; sort by name (select), then by response time (column header), then back to the default.
  // A search that matches some of the monitors either way they were made (seed-monitors.ts names them "shop 1"…).
  // The search --runs times (one is noisy: a refresh of the list may be out, a minute's checks landing), the median.
  const searches: Awaited<ReturnType<typeof timed>>[] = [];
  for (let r = 0; r < runs; r++) {
    searches.push(await timed(direct ? "search:shop 1" : "search:checkout 1"));
    await timed("search:");
  }
  const search = searches.sort((a, b) => a.wall - b.wall)[Math.floor((searches.length - 1) / 2)]!;
  const sortName = await timed("select:name");
  const sortTime = await timed("click:monitors-sort-responseTime");
  await timed("select:name");
  await page.waitForTimeout(300);

  // One live check on an http monitor in view (sorted by name; its status stays up).
  const watched = await page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-testid^="monitor-row-"]')];
    const row = rows.find((r) => r.getAttribute("data-status") === "up" && r.querySelector('[data-type="http"]'));
    return row ? Number(row.getAttribute("data-testid")!.slice("monitor-row-".length)) : null;
  });
  let live = { ms: NaN, others: NaN };
  if (watched !== null) {
    const result = page.evaluate(
      (id) =>
        new Promise<{ ms: number; others: number }>((done) => {
          const table = document.querySelector('[data-testid="monitors-table"]')!;
          const changedRows = new Set<string>();
          let updatedAt = 0;
          const observer = new MutationObserver((records) => {
            for (const record of records) {
              const node = record.target instanceof Element ? record.target : record.target.parentElement;
              if (!node || node.closest("time")) continue; // "12s ago" ticks every second in every row
              const row = node.closest('[data-testid^="monitor-row-"]');
              if (!row) continue;
              const key = row.getAttribute("data-testid")!;
              changedRows.add(key);
              if (key === `monitor-row-${id}` && !updatedAt) updatedAt = performance.now();
            }
          });
          observer.observe(table, { childList: true, subtree: true, attributes: true, characterData: true });
          const start = window.__checkMessages!.length;
          const poll = setInterval(() => {
            const message = window.__checkMessages!.slice(start).find(([m]) => m === id);
            if (!message || !updatedAt) return;
            clearInterval(poll);
            // Let a frame pass: anything else the message changed is in the DOM by then.
            setTimeout(() => {
              observer.disconnect();
              changedRows.delete(`monitor-row-${id}`);
              done({ ms: updatedAt - message[1], others: changedRows.size });
            }, 250);
          }, 5);
        }),
      watched,
    );
    await page.waitForTimeout(50);
    await call("POST", `/api/monitors/${watched}/check`, {}, session.token);
    live = await within("live check", 20_000, result);
  }

  // A burst of checks (different monitors, most out of view), in the default order: the longest frame while their
  // messages arrive.
  await timed("select:");
  await page.waitForTimeout(300);
  let longestFrame = NaN;
  let messages = 0;
  if (burst > 0) {
    const ids = (await call("GET", "/api/monitors", undefined, session.token)).monitors
      .filter((m: { type: string }) => m.type === "http" || m.type === "tcp")
      .slice(0, burst)
      .map((m: { id: number }) => m.id as number);
    await page.evaluate(() => {
      const w = window as Window & { __frames?: number[]; __stopFrames?: boolean };
      w.__frames = [];
      w.__stopFrames = false;
      let last = performance.now();
      const loop = (now: number) => {
        w.__frames!.push(now - last);
        last = now;
        if (!w.__stopFrames) requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
      (window as Window & { __burstStart?: number }).__burstStart = window.__checkMessages!.length;
    });
    await within("burst", 60_000, pool(ids.length, 64, (i) => call("POST", `/api/monitors/${ids[i]}/check`, {}, session.token).then(() => {})));
    await page.waitForTimeout(1000); // the last messages and the refresh they cause
    ({ longestFrame, messages } = await page.evaluate(() => {
      const w = window as Window & { __frames?: number[]; __stopFrames?: boolean; __burstStart?: number };
      w.__stopFrames = true;
      return { longestFrame: Math.max(...w.__frames!.slice(1)), messages: window.__checkMessages!.length - w.__burstStart! };
    }));
  }
  await context.close();
  return {
    n,
    api: median(loads.map((l) => l.api)),
    rows: median(loads.map((l) => l.rows)),
    painted: median(loads.map((l) => l.painted)),
    coldPainted: loads[0]!.painted,
    dom,
    search,
    sortName,
    sortTime,
    live,
    longestFrame,
    messages,
  };
}

async function run(browser: Browser, exe: string, n: number, targetPort: number, dns: DnsResponder) {
  const dir = mkdtempSync(join(work, `data-${n}-`));
  if (direct) await seedMonitors(dir, n, targetPort);
  const server = await startServer(dir, { binary: exe });
  let stopped = false;
  const stop = async () => {
    if (!stopped) {
      stopped = true;
      await server.stop();
    }
  };
  cleanups.push(stop);
  try {
    const call = apiClient(server.base);
    await call("POST", "/api/auth/register", { username: "bench", password: PASSWORD, confirmPassword: PASSWORD });
    const login = await call("POST", "/api/auth/login", { username: "bench", password: PASSWORD });
    const session = { token: login.token as string, user: login.user };
    if (direct) {
      // Checked every minute from the start: after 70 s every monitor has a check, and checks keep streaming.
      await Bun.sleep(70_000);
      return { ...(await measure(browser, server, session, n, n + Math.max(1, Math.floor(n / 50)))), createS: 0 };
    }
    const created = performance.now();
    let failures = 0;
    await within(
      `creating ${n} monitors`,
      300_000,
      pool(n, 32, async (i) => {
        const reply = await call("POST", "/api/monitors", monitorBody(i, targetPort, dns.port), session.token);
        if (!reply.monitor && failures++ === 0) console.error(`create failed: ${JSON.stringify(reply).slice(0, 300)}`);
      }),
    );
    if (failures) throw new Error(`${failures} of ${n} monitors could not be created`);
    const createS = (performance.now() - created) / 1000;
    // Creating runs a first check of each: wait until they are all in, so the page is measured on a settled list.
    const settled = performance.now() + 120_000;
    for (;;) {
      const list = (await call("GET", "/api/monitors", undefined, session.token)).monitors as { type: string; active: boolean; lastCheckedAt: number | null }[];
      const waiting = list.filter((m) => m.active && m.type !== "push" && m.lastCheckedAt === null).length;
      if (waiting === 0) break;
      if (performance.now() > settled) throw new Error(`${waiting} first checks still missing after 120 s`);
      await Bun.sleep(500);
    }
    await Bun.sleep(500);
    return { ...(await measure(browser, server, session, n)), createS };
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  const exe = await binary();
  const target = countingTarget();
  cleanups.push(() => target.stop());
  const dns = await startDnsResponder();
  cleanups.push(() => dns.stop());
  for (let i = 0; i < Math.max(...sizes); i++) dns.set(`host${i}.bench.test`, "A", ["10.0.0.1"]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());

  console.log(
    `Monitor list benchmark: ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${mb(totalmem())} RAM, Bun ${Bun.version}, ` +
      `Chromium ${browser.version()} (1280×900, en-US); times from the start of navigation, median of ${runs} loads\n`,
  );
  const results = [];
  for (const n of sizes) {
    process.stderr.write(`${n} monitors…\n`);
    results.push(await run(browser, exe, n, target.port!, dns));
  }

  const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : "–");
  const both = (t: { wall: number; task: number }) => `${ms(t.wall)} (${ms(t.task)})`;
  console.log(
    "| monitors | API reply | first rows in DOM | first rows painted (first load) | rows in DOM / DOM elements | search, incl. 150 ms debounce (main thread) | sort by name (main thread) | sort by response time (main thread) | live check → its row | other rows changed | longest frame, burst of checks | JS heap |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    console.log(
      `| ${r.n.toLocaleString("en-US")} | ${ms(r.api)} | ${ms(r.rows)} | ${ms(r.painted)} (${ms(r.coldPainted)}) | ${r.dom.rows} / ${r.dom.elements.toLocaleString("en-US")} | ` +
        `${both(r.search)} | ${both(r.sortName)} | ${both(r.sortTime)} | ${ms(r.live.ms)} | ${Number.isFinite(r.live.others) ? r.live.others : "–"} | ` +
        `${ms(r.longestFrame)} (${r.messages} of ${burst} checks sent to the page) | ${r.dom.heap ? mb(r.dom.heap) : "–"} |`,
    );
  }
  console.log("");
  for (const r of results) {
    const { asked, answered, wall } = r.search;
    console.log(`- ${r.n}: the search (median of ${runs}) asked the server at ${ms(asked)} (the debounce), had its answer at ${ms(answered)}, showed it at ${ms(wall)}`);
  }
  for (const r of results) console.log(direct ? `- ${r.n}: monitors and groups written into the database, checked every minute` : `- ${r.n}: ${r.n} monitors created through the API in ${r.createS.toFixed(1)} s`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
  await cleanup();
}
