// npm run screenshots: the README's pictures (docs/screenshots/*.png) taken from the compiled executable with the
// browser-test setup. It starts dist/vigil (`--binary` for another) on a free port in a fresh temp data dir, seeds a
// small instance in use through the public API only (an admin, monitors against local HTTP targets on 127.0.0.1 — two
// slow, one answering 500 — agents reporting the last hour of samples, the status page with an announcement), then
// signs in with Debian's Chromium (playwright-core, the flags of playwright.config.ts) in English and saves each
// screen. Everything it started is stopped and the temp dir removed, failure or not. Run `npm run build` first.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import type { HostInfo, Sample } from "../server/agents/protocol";
import { startDnsResponder, type DnsResponder } from "../server/monitors/types/dns/responder";
import { DISABLE_FEATURES } from "../server/monitors/types/browser/chromium-features";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    binary: { type: "string", default: "dist/vigil" },
    out: { type: "string", default: "docs/screenshots" },
  },
});
const BINARY = resolve(values.binary!);
const OUT = resolve(values.out!);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// The same flags as playwright.config.ts.
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic", DISABLE_FEATURES];
const USERNAME = "admin";
const PASSWORD = "correct horse battery";
const DEADLINE_MS = 90_000;

if (!existsSync(BINARY)) {
  console.error(`${BINARY} is missing: run \`npm run build\` first (or pass --binary <path>).`);
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  process.exit(1);
}

// ---- what gets cleaned up, whatever happens ----
const cleanups: (() => Promise<void> | void)[] = [];
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error("cleanup:", err);
      }
    }
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void cleanup().then(() => process.exit(130)));
}

// ---- local HTTP targets for the monitors ----
/**
 * Each path answers after a delay (ms, with jitter): small services on 127.0.0.1. `status` may depend on how many
 * requests the path has had, for a blip or an outage that starts partway through the history.
 */
const ROUTES: Record<string, { status: (n: number) => number; delay: [number, number] }> = {
  "/": { status: () => 200, delay: [8, 40] },
  "/api/health": { status: () => 200, delay: [20, 70] },
  "/checkout": { status: (n) => (n === 23 ? 503 : 200), delay: [60, 160] }, // one failed check
  "/login": { status: () => 200, delay: [25, 60] },
  "/assets/app.js": { status: () => 200, delay: [3, 15] },
  "/search?q=status": { status: () => 200, delay: [300, 650] }, // slow
  "/reports/daily": { status: () => 200, delay: [800, 1300] }, // slow
  "/webhooks/billing": { status: (n) => (n < 30 ? 200 : 500), delay: [30, 90] }, // down since its 30th check
};

async function startTargets(): Promise<{ url: (path: string) => string; server: Server; dns: DnsResponder; dnsPort: number }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    const route = ROUTES[path] ?? { status: () => 404, delay: [1, 2] as [number, number] };
    const n = hits.get(path) ?? 0;
    hits.set(path, n + 1);
    const status = route.status(n);
    const [lo, hi] = route.delay;
    req.resume();
    setTimeout(() => {
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 400 ? "ok" : "internal error");
    }, lo + Math.random() * (hi - lo));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  const dns = await startDnsResponder({ "acme.example": { A: ["203.0.113.10", "203.0.113.11"] } });
  return { url: (path) => `http://127.0.0.1:${port}${path}`, server, dns, dnsPort: dns.port };
}

// ---- the server ----
async function startVigil(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-screenshots-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const proc: ChildProcess = spawn(BINARY, ["--port", "0", "--data-dir", dataDir], { cwd: dataDir, stdio: ["ignore", "pipe", "pipe"] });
  cleanups.push(async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  });
  let output = "";
  return new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`vigil did not start within 10 s:\n${output}`)), 10_000);
    proc.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    proc.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    proc.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`vigil exited with ${code}:\n${output}`));
    });
  });
}

function apiClient(base: string) {
  return async function api<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    const res = await fetch(base + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as T;
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

// ---- agents: a plausible host and an hour of samples ----
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const INTERVAL_S = 15;

interface DemoHost {
  name: string;
  host: HostInfo;
  cores: number;
  model: string;
  memory: number;
  /** Typical CPU and memory use, percent. */
  cpu: number;
  mem: number;
  disks: { device: string; mountPoint: string; fsType: string; total: number; usage: number }[];
  /** Typical receive and send rates, bytes/s. */
  net: [number, number];
}

const HOSTS: DemoHost[] = [
  {
    name: "web-1",
    host: { hostname: "web-1", ips: ["10.0.1.11", "fd00:1::11"], os: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0-28-amd64", arch: "x64", uptime: 23 * 86_400 + 4 * 3600, agentVersion: "0.1.0" },
    cores: 4,
    model: "AMD EPYC 7543P 32-Core Processor",
    memory: 8 * GiB,
    cpu: 28,
    mem: 52,
    disks: [
      { device: "/dev/vda1", mountPoint: "/", fsType: "ext4", total: 80 * GiB, usage: 41 },
      { device: "/dev/vdb1", mountPoint: "/var/lib/docker", fsType: "xfs", total: 200 * GiB, usage: 67 },
    ],
    net: [2.4 * MiB, 900 * 1024],
  },
  {
    name: "db-1",
    host: { hostname: "db-1", ips: ["10.0.1.21"], os: "Ubuntu 24.04.1 LTS", kernel: "6.8.0-49-generic", arch: "x64", uptime: 61 * 86_400, agentVersion: "0.1.0" },
    cores: 8,
    model: "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
    memory: 32 * GiB,
    cpu: 18,
    mem: 71,
    disks: [
      { device: "/dev/nvme0n1p2", mountPoint: "/", fsType: "ext4", total: 100 * GiB, usage: 23 },
      { device: "/dev/nvme1n1", mountPoint: "/var/lib/postgresql", fsType: "xfs", total: 1000 * GiB, usage: 58 },
    ],
    net: [700 * 1024, 1.6 * MiB],
  },
  {
    name: "edge-arm",
    host: { hostname: "edge-arm", ips: ["10.0.2.5"], os: "Debian GNU/Linux 12 (bookworm)", kernel: "6.1.0-28-arm64", arch: "arm64", uptime: 9 * 86_400 + 7200, agentVersion: "0.1.0" },
    cores: 2,
    model: "Neoverse-N1",
    memory: 4 * GiB,
    cpu: 9,
    mem: 38,
    disks: [{ device: "/dev/sda1", mountPoint: "/", fsType: "ext4", total: 40 * GiB, usage: 33 }],
    net: [180 * 1024, 120 * 1024],
  },
];

/** A smooth, repeatable wobble in [-1, 1] (sum of sines), so charts look like a day at work rather than noise. */
const wobble = (t: number, seed: number) => 0.6 * Math.sin(t / 420 + seed) + 0.3 * Math.sin(t / 97 + seed * 2.1) + 0.1 * Math.sin(t / 23 + seed * 3.7);
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function sampleAt(h: DemoHost, seed: number, time: number): Sample {
  const t = time / 1000;
  const spike = Math.max(0, Math.sin(t / 300 + seed)) ** 8; // a busy minute now and then
  const cpu = clamp(h.cpu * (1 + 0.35 * wobble(t, seed)) + 45 * spike + Math.random() * 4, 0.5, 99);
  const mem = clamp(h.mem + 4 * wobble(t, seed + 1) + 6 * spike, 1, 99);
  const used = Math.round((h.memory * mem) / 100);
  const load = (cpu / 100) * h.cores;
  const rate = (base: number, s: number) => Math.round(base * (1 + 0.5 * wobble(t, s) + 2 * spike + 0.2 * Math.random()));
  return {
    time,
    cpu: { usage: Math.round(cpu * 10) / 10, cores: h.cores, model: h.model },
    memory: { total: h.memory, used, free: h.memory - used, usageRate: Math.round(mem * 10) / 10 },
    disks: h.disks.map((d, i) => {
      const usage = d.usage + 0.4 * ((time % 3_600_000) / 3_600_000) + 0.05 * i; // slowly filling
      const diskUsed = Math.round((d.total * usage) / 100);
      return { device: d.device, mountPoint: d.mountPoint, fsType: d.fsType, total: d.total, used: diskUsed, free: d.total - diskUsed, usageRate: Math.round(usage * 100) / 100 };
    }),
    network: [
      {
        name: "eth0",
        rxRate: rate(h.net[0], seed + 2),
        txRate: rate(h.net[1], seed + 3),
        received: Math.round(h.net[0] * h.host.uptime),
        sent: Math.round(h.net[1] * h.host.uptime),
        packetsReceived: Math.round((h.net[0] * h.host.uptime) / 900),
        packetsSent: Math.round((h.net[1] * h.host.uptime) / 700),
      },
    ],
    load: { one: Math.round(load * 100) / 100, five: Math.round(load * 0.9 * 100) / 100, fifteen: Math.round(load * 0.8 * 100) / 100 },
  };
}

// ---- the run ----
async function seed(base: string, targets: { url: (path: string) => string; dnsPort: number }) {
  const api = apiClient(base);
  await api("POST", "/api/auth/register", { username: USERNAME, email: "ops@example.com", password: PASSWORD, confirmPassword: PASSWORD });
  const { token } = await api<{ token: string }>("POST", "/api/auth/login", { username: USERNAME, password: PASSWORD });

  const monitorDefs = [
    { name: "Website", path: "/", tags: ["prod", "web"] },
    { name: "Public API", path: "/api/health", tags: ["prod", "api"] },
    { name: "Checkout", path: "/checkout", tags: ["prod", "payments"] },
    { name: "Sign-in", path: "/login", tags: ["prod", "web"] },
    { name: "CDN assets", path: "/assets/app.js", tags: ["edge"] },
    { name: "Search", path: "/search?q=status", tags: ["prod", "api"] },
    { name: "Daily reports", path: "/reports/daily", timeout: 10, tags: ["batch"] },
    { name: "Billing webhooks", path: "/webhooks/billing", retries: 0, tags: ["prod", "payments"] },
  ];
  const monitors: { id: number; name: string }[] = [];
  for (const m of monitorDefs) {
    const { monitor } = await api<{ monitor: { id: number } }>(
      "POST",
      "/api/monitors",
      { name: m.name, url: targets.url(m.path), interval: 1, timeout: m.timeout ?? 5, retries: m.retries ?? 1, tags: m.tags },
      token,
    );
    monitors.push({ id: monitor.id, name: m.name });
  }
  // The other check types, for the list: a port (the local target's), a DNS name (the local responder) and a push
  // monitor that the "backup job" below has called once. They are not on the status page.
  const others: { id: number; name: string }[] = [];
  const port = Number(new URL(targets.url("/")).port);
  for (const body of [
    { name: "Postgres primary", type: "tcp", host: "127.0.0.1", port, tags: ["prod", "db"] },
    { name: "acme.example DNS", type: "dns", host: "acme.example", dnsRecordType: "A", dnsResolver: `127.0.0.1:${targets.dnsPort}`, dnsExpected: "203.0.113.10", tags: ["edge"] },
    { name: "Nightly backup", type: "push", interval: 60, tags: ["batch", "db"] },
  ]) {
    const { monitor } = await api<{ monitor: { id: number; pushToken: string | null } }>("POST", "/api/monitors", { interval: 1, timeout: 5, retries: 1, ...body }, token);
    others.push({ id: monitor.id, name: body.name });
    if (monitor.pushToken) await api("POST", `/api/push/${monitor.pushToken}?msg=${encodeURIComponent("backup 12.4 GB in 6 min")}`);
  }
  // History, in real time: 49 more checks per monitor (creation ran the first) so that the last-50 strip is full,
  // in waves of 7 (all monitors at once), which keeps the slow ones within a dozen seconds.
  await Promise.all(
    [...monitors, ...others.slice(0, 2)].map(async (m) => {
      for (let wave = 0; wave < 7; wave++) {
        await Promise.all(Array.from({ length: 7 }, () => api("POST", `/api/monitors/${m.id}/check`, {}, token)));
      }
    }),
  );

  // Agents register with one-time tokens and send the last hour of samples, as `vigil-agent run` would after an outage.
  const agents: { id: number; credential: string; host: DemoHost; seed: number }[] = [];
  const now = Date.now();
  for (const [i, h] of HOSTS.entries()) {
    const { token: regToken } = await api<{ token: string }>("POST", "/api/agents/tokens", {}, token);
    const reg = await api<{ agentId: number; credential: string }>("POST", "/api/agents/register", { token: regToken, name: h.name, host: h.host });
    const agent = { id: reg.agentId, credential: reg.credential, host: h, seed: i * 1.7 };
    const count = 3600 / INTERVAL_S;
    const samples = Array.from({ length: count }, (_, k) => sampleAt(h, agent.seed, now - (count - 1 - k) * INTERVAL_S * 1000));
    await api("POST", "/api/agents/report", { host: h.host, interval: INTERVAL_S, samples }, agent.credential);
    agents.push(agent);
  }
  const reportNow = () =>
    Promise.all(agents.map((a) => api("POST", "/api/agents/report", { host: a.host.host, interval: INTERVAL_S, samples: [sampleAt(a.host, a.seed, Date.now())] }, a.credential)));

  await api(
    "PUT",
    "/api/status/config",
    {
      title: "Acme Cloud status",
      description: "Live availability of Acme's website, API and infrastructure. Subscribe to updates at status@acme.example.",
      monitorIds: monitors.map((m) => m.id),
      agentIds: agents.map((a) => a.id),
      announcement: { severity: "warning", text: "Billing webhooks are failing since this morning's deploy. Payments are safe; we are rolling back." },
    },
    token,
  );
  return { monitors, agents, reportNow };
}

/** Waits until every chart inside `scope` is drawn (uPlot canvas, scales set) and the page is idle. */
async function chartsDrawn(page: Page, scope: string, min = 1) {
  await page.waitForFunction(
    ({ scope, min }) => {
      const figures = [...document.querySelectorAll(`${scope} [role=figure]`)];
      return figures.length >= min && figures.every((f) => (f as HTMLElement).dataset.xMin !== undefined && f.querySelector("canvas"));
    },
    { scope, min },
  );
  await settle(page);
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
}

/** Scrolls to the end and back, so that what draws itself only near the screen (the status page's sparklines) is drawn. */
async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() =>
    [...document.querySelectorAll("[data-testid^=status-spark-]:not([data-testid^=status-spark-empty])")].every((el) => el.querySelector("canvas")),
  );
}

async function shoot(page: Page, name: string, fullPage = true) {
  const path = join(OUT, name);
  await page.screenshot({ path, fullPage, animations: "disabled", caret: "hide" });
  const size = Bun.file(path).size;
  console.log(`  ${name.padEnd(24)} ${(size / 1024).toFixed(0).padStart(4)} KB`);
}

async function main() {
  const started = performance.now();
  const targets = await startTargets();
  cleanups.push(() => targets.dns.stop());
  cleanups.push(
    () =>
      new Promise<void>((ok) => {
        targets.server.closeAllConnections();
        targets.server.close(() => ok());
      }),
  );
  const base = await startVigil();
  console.log(`vigil at ${base}; seeding…`);
  const { monitors, agents, reportNow } = await seed(base, targets);

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 }, locale: "en-US", colorScheme: "light" });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => msg.type() === "error" && problems.push(`console: ${msg.text()}`));

  // Sign in through the login form, as a person would.
  await page.goto("/login");
  await page.locator("[data-testid=login-form] input[name=username]").fill(USERNAME);
  await page.locator("[data-testid=login-form] input[name=password]").fill(PASSWORD);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(/\/dashboard$/);

  mkdirSync(OUT, { recursive: true });
  console.log(`shots → ${OUT}`);

  // Dashboard: the problem list and the counts.
  await page.goto("/");
  await page.waitForURL(/\/dashboard$/);
  await page.getByTestId("dashboard-problems").waitFor();
  await page.getByTestId("dashboard-agents-online").filter({ hasText: String(agents.length) }).waitFor();
  await settle(page);
  await shoot(page, "dashboard.png");

  // The monitor list: every check type, tags, heartbeat strips (this instance's hour), the failing webhook first.
  await page.goto("/monitors");
  await page.getByTestId(`monitor-row-${monitors[0].id}`).waitFor();
  await page.locator("[data-testid^=monitor-row-][data-status=down]").first().waitFor();
  await settle(page);
  await shoot(page, "monitors.png");

  // Monitor detail: a busy service with one failed check among its last 50.
  const shown = monitors.find((m) => m.name === "Checkout") ?? monitors[0];
  await page.goto(`/monitors/${shown.id}`);
  await page.getByTestId("monitor-strip").waitFor();
  await page.getByTestId("history-day").waitFor();
  await chartsDrawn(page, "[data-testid=monitor-chart-card]");
  await shoot(page, "monitor-detail.png");

  // Agent detail: current figures and the last hour's charts.
  await reportNow();
  const web = agents[0];
  await page.goto(`/agents/${web.id}`);
  await page.getByTestId("agent-facts").waitFor();
  await page.getByTestId("agent-disks").waitFor();
  await chartsDrawn(page, "[data-testid=agent-charts]", 4);
  await shoot(page, "agent-detail.png");

  // The public status page, signed out, on a desktop and on a phone.
  await reportNow();
  const visitor = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 }, locale: "en-US", colorScheme: "light" });
  const pub = await visitor.newPage();
  pub.on("pageerror", (err) => problems.push(`status page error: ${err.message}`));
  await pub.goto("/status");
  await pub.getByTestId("status-announcement").waitFor();
  await pub.getByTestId(`status-monitor-${monitors[0].id}`).waitFor();
  await pub.getByTestId(`status-agent-${web.id}`).waitFor();
  await scrollThrough(pub);
  await settle(pub);
  await shoot(pub, "status-page.png");
  // A phone: its first screen, at the phone's pixel density.
  const phone = await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "en-US", colorScheme: "light" });
  const mobile = await phone.newPage();
  mobile.on("pageerror", (err) => problems.push(`status page (phone) error: ${err.message}`));
  await mobile.goto("/status");
  await mobile.getByTestId("status-announcement").waitFor();
  await mobile.getByTestId(`status-monitor-${monitors[0].id}`).waitFor();
  await settle(mobile);
  await shoot(mobile, "status-page-phone.png", false);

  if (problems.length) throw new Error(`the pages reported errors:\n${problems.join("\n")}`);
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const deadline = setTimeout(() => {
  console.error(`screenshots: gave up after ${DEADLINE_MS / 1000} s`);
  void cleanup().then(() => process.exit(1));
}, DEADLINE_MS);
let code = 0;
try {
  await main();
} catch (err) {
  console.error("screenshots failed:", err instanceof Error ? err.message : err);
  code = 1;
} finally {
  clearTimeout(deadline);
  await cleanup();
}
process.exit(code);
