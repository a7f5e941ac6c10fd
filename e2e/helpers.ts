// Setup shared by the browser tests: a local HTTP target for monitors, and agents reporting through the real agent
// API as the compiled agent would.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Locator, Page } from "@playwright/test";
import { test as base, expect, type Vigil } from "./fixtures";
import { tr, type Messages } from "./i18n";

/** A local HTTP target: 200 "ok" by default, 500 under /fail, or whatever `set` / `body` say for a path. */
export interface Target {
  url(path: string): string;
  set(path: string, status: number): void;
  /** What a path answers (with its content type) instead of "ok". */
  body(path: string, text: string, contentType?: string): void;
  close(): Promise<void>;
}

async function startTarget(): Promise<Target> {
  const statuses = new Map<string, number>();
  const bodies = new Map<string, { text: string; contentType: string }>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const status = statuses.get(path) ?? (path.startsWith("/fail") ? 500 : 200);
    const body = bodies.get(path);
    req.resume();
    res.writeHead(status, { "content-type": body?.contentType ?? "text/plain" });
    res.end(body?.text ?? (status < 400 ? "ok" : "error"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, status) => void statuses.set(path, status),
    body: (path, text, contentType = "text/plain") => void bodies.set(path, { text, contentType }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const test = base.extend<{ target: Target }>({
  target: async ({}, use) => {
    const target = await startTarget();
    await use(target);
    await target.close();
  },
});

export type Session = { token: string; user: { id: number } };

export async function createMonitor(vigil: Vigil, session: Session, body: Record<string, unknown>) {
  const res = await vigil.api("POST", "/api/monitors", body, session.token);
  expect(res.status).toBe(201);
  const id: number = res.body.monitor.id;
  // Creating runs a first check at once: wait for it, so what follows starts from a known state.
  if (body.active !== false) {
    await expect
      .poll(async () => (await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token)).body.monitor.lastCheckedAt, { timeout: 5000 })
      .not.toBeNull();
  }
  return id;
}

export const check = (vigil: Vigil, session: Session, id: number) => vigil.api("POST", `/api/monitors/${id}/check`, {}, session.token);

export const GiB = 1024 ** 3;

export function sample(time: number, cpu = 25) {
  return {
    time,
    cpu: { usage: cpu, cores: 4, model: "Test CPU @ 2.0GHz" },
    memory: { total: 8 * GiB, used: 3 * GiB, free: 5 * GiB, usageRate: 37.5 },
    disks: [
      { device: "/dev/vda1", mountPoint: "/", fsType: "ext4", total: 50 * GiB, used: 20 * GiB, free: 30 * GiB, usageRate: 40 },
      { device: "/dev/vdb1", mountPoint: "/data", fsType: "xfs", total: 200 * GiB, used: 180 * GiB, free: 20 * GiB, usageRate: 90 },
    ],
    network: [{ name: "eth0", rxRate: 1536, txRate: 512, received: 10 * GiB, sent: GiB, packetsReceived: 123456, packetsSent: 65432 }],
    load: { one: 0.25, five: 0.5, fifteen: 0.75 },
  };
}

export const host = (hostname: string) => ({
  hostname,
  ips: ["10.1.2.3"],
  os: "Debian GNU/Linux 12",
  kernel: "6.1.0-test",
  arch: "x64",
  uptime: 90_061,
  agentVersion: "0.1.0",
});

/** Registers an agent with a fresh token (as `vigil-agent register` does) and returns its id and credential. */
export async function registerAgent(vigil: Vigil, session: { token: string }, hostname: string, token?: string) {
  const regToken = token ?? (await vigil.api("POST", "/api/agents/tokens", {}, session.token)).body.token;
  const reg = await vigil.api("POST", "/api/agents/register", { token: regToken, host: host(hostname) });
  expect(reg.status).toBe(201);
  return { id: reg.body.agentId as number, credential: reg.body.credential as string };
}

/** Sends samples taken every 10 s up to now (as `vigil-agent run` does). */
export async function report(vigil: Vigil, agent: { credential: string }, hostname: string, count = 6, containers?: unknown) {
  const now = Date.now();
  const samples = Array.from({ length: count }, (_, i) => sample(now - (count - 1 - i) * 10_000, 20 + i));
  const res = await vigil.api("POST", "/api/agents/report", { host: host(hostname), interval: 10, samples, ...(containers ? { containers } : {}) }, agent.credential);
  expect(res.status).toBe(200);
}

/** The monitor form's parts, by field name and type (labels in the page's language). */
export function formOf(page: Page, m: Messages) {
  const form = page.getByTestId("monitor-form");
  return {
    form,
    field: (name: string): Locator => form.locator(`[name="${name}"]`),
    radio: (type: string) => page.getByRole("radio", { name: tr(m, `monitors.types.${type}`), exact: true }),
    error: (field: string) => page.getByTestId(`monitor-error-${field}`),
    submit: () => page.getByTestId("monitor-submit").click(),
  };
}

/**
 * Waits for the next hour when it is under a minute away: tests that read "this hour's" bar make their checks and read
 * the bar in the same hour (a run at 03:59:50 read the empty 04:00 bar). The wait is added to the test's time limit.
 */
export async function clearOfTheHourTurn() {
  const HOUR = 3_600_000;
  const left = HOUR - (Date.now() % HOUR);
  if (left > 60_000) return;
  base.info().setTimeout(base.info().timeout + left + 1_000);
  await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

/**
 * Three monitors for the availability colours, checked now: "All up" (1 of 1 up), "Mostly up" (17 of 20 up: 85 %)
 * and "All down" (0 of 1). Checks only on demand (a long interval), so nothing else moves the counts.
 */
export async function availabilityTrio(vigil: Vigil, session: Session, target: Target) {
  await clearOfTheHourTurn();
  const long = { interval: 1440, retries: 0 }; // minutes
  const allUp = await createMonitor(vigil, session, { name: "All up", url: target.url("/all-up"), ...long });
  const mostlyUp = await createMonitor(vigil, session, { name: "Mostly up", url: target.url("/mostly-up"), ...long }); // 1 up
  for (let i = 0; i < 16; i++) expect((await check(vigil, session, mostlyUp)).status).toBe(200);
  target.set("/mostly-up", 500);
  for (let i = 0; i < 3; i++) expect((await check(vigil, session, mostlyUp)).status).toBe(200);
  target.set("/all-down", 500);
  const allDown = await createMonitor(vigil, session, { name: "All down", url: target.url("/all-down"), ...long });
  return { allUp, mostlyUp, allDown };
}

/** A slot's fill as the browser paints it. */
export const fill = (slot: Locator) => slot.evaluate((el) => getComputedStyle(el).backgroundColor);

/** The colour legend under availability bars: each level with its words, in the page's language. */
export async function expectLegend(legend: Locator, m: Messages) {
  await expect(legend).toBeVisible();
  await expect(legend).toHaveAttribute("aria-label", tr(m, "availability.legend"));
  const items = legend.getByTestId("availability-legend-item");
  await expect(items).toHaveText(["up", "degraded", "down", "maintenance", "none"].map((level) => tr(m, `availability.${level}`, { percent: 50 })));
  const fills = await items.evaluateAll((els) => els.map((el) => getComputedStyle(el.firstElementChild!).backgroundColor));
  expect(new Set(fills).size).toBe(5);
}
