// Intervals in seconds on the real clock: the fully wired server (createServices + createApp, started through
// lifecycle.ts) with its real minute, a 1 s monitor checked every second and a failing one retried every retry
// interval until it is down. Both engines.
import { afterEach, expect, test } from "bun:test";
import { wiredApp } from "./test-support";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(what: string, ok: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** A local target answering `status()` and noting when each request came, per path. */
function target(status: (path: string) => number) {
  const hits = new Map<string, number[]>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const path = new URL(req.url).pathname;
      hits.set(path, [...(hits.get(path) ?? []), Date.now()]);
      return new Response("x", { status: status(path) });
    },
  });
  cleanups.push(() => server.stop(true));
  return { url: (path: string) => `http://127.0.0.1:${server.port}${path}`, hits: (path: string) => hits.get(path) ?? [] };
}

async function wired() {
  const t = await wiredApp();
  cleanups.push(t.stop);
  const { token } = await t.signUp("admin");
  const create = async (body: Record<string, unknown>) => {
    const res = await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body });
    expect(res.status).toBe(201);
    return res.body.monitor.id;
  };
  const get = async (id: number) => (await t.call<{ monitor: { status: string; consecutiveFailures: number } }>("GET", `/api/monitors/${id}`, { token })).body.monitor;
  return { create, get, services: t.services };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

function expectEverySecond(list: number[]) {
  const mean = list.reduce((a, b) => a + b, 0) / list.length;
  expect(mean).toBeGreaterThan(900);
  expect(mean).toBeLessThan(1150);
  for (const gap of list) expect(gap).toBeGreaterThan(500), expect(gap).toBeLessThan(1500);
}

test("a 1 s monitor is checked every second, and a failing 30 s one is retried every 1 s retry interval until down", async () => {
  const site = target((path) => (path === "/down" ? 500 : 200));
  const s = await wired();
  await s.create({ name: "fast", url: site.url("/ok"), intervalSeconds: 1, retries: 0 });
  const failing = await s.create({ name: "flaky", url: site.url("/down"), intervalSeconds: 30, retryIntervalSeconds: 1, retries: 3 });
  // The requests it had made when it went down, taken as it happened: once down, its next check is on its 30 s grid,
  // which may come a second later (not sooner than a retry interval) — a poll on a busy machine could see that one too.
  let triesAtDown = null as number | null;
  s.services.events.on("monitor.status", (e) => {
    if (e.monitorId === failing && e.to === "down" && triesAtDown === null) triesAtDown = site.hits("/down").length;
  });

  await until("six checks of the 1 s monitor", () => site.hits("/ok").length >= 6, 10_000);
  // After the check at creation, the grid: a second apart on average; one late timer makes one gap longer and the next
  // shorter (the slots stay where they are), so single gaps only have to be near a second.
  expectEverySecond(gaps(site.hits("/ok").slice(1)));

  await until("the failing monitor down", async () => (await s.get(failing)).status === "down", 10_000);
  // The check at creation, then three retries one retry interval apart (not 30 s), the last of which makes it down.
  expect(triesAtDown).toBe(4);
  expectEverySecond(gaps(site.hits("/down").slice(0, 4)));
  expect((await s.get(failing)).status).toBe("down");
}, 30_000);
