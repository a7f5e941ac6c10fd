// Acknowledging on the real clock (both engines): the wired server in this process (createServices + createApp,
// started through lifecycle.ts and listening on 127.0.0.1), a "minute" of the settings shortened to two seconds, a
// local webhook catching the alerts. A monitor goes down with reminders every minute; the link in a message is
// followed as a person would (its page's button POSTs to /api/ack/<token>); the reminders stop.
import { afterEach, expect, test } from "bun:test";
import { createServices } from "../app";
import { testDb } from "../db/test-db";
import { startServices, stopServices } from "../lifecycle";
import { testApp } from "../test-support";

const MINUTE_MS = 2_000;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function until(what: string, ok: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

/** A port free now, for a server whose public address must be known before it starts. */
function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

test("reminders every minute reach the webhook until the link in one of them is followed; then they stop", async () => {
  const messages: { at: number; title: string; lines: string[]; events: { kind: string; facts: { ackUrl?: string } }[] }[] = [];
  const hook = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      messages.push({ at: Date.now(), ...((await req.json()) as Omit<(typeof messages)[number], "at">) });
      return new Response("ok");
    },
  });
  cleanups.push(() => hook.stop(true));
  const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("x", { status: 503 }) });
  cleanups.push(() => target.stop(true));

  const port = freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const db = await testDb();
  const services = await createServices(db, { minuteMs: MINUTE_MS, notifications: { publicUrl } });
  const t = await testApp({ db, services });
  t.app.listen({ hostname: "127.0.0.1", port });
  await startServices(services, { url: publicUrl });
  cleanups.push(async () => {
    await stopServices(services, async () => void (await t.app.stop(true)));
    await db.close();
  });

  const { token } = await t.signUp("admin");
  const call = (method: string, path: string, body?: unknown) => t.call<Record<string, any>>(method, path, { token, body });
  const channel = (await call("POST", "/api/notifications/channels", { name: "Hook", type: "webhook", config: { url: `http://127.0.0.1:${hook.port}/hook` } })).body.channel.id;
  expect(
    (await call("PUT", "/api/notifications/settings", {
      monitor: { enabled: true, channelIds: [channel], events: { down: true, recovery: true }, reminderMinutes: 1 },
      agent: { enabled: false, channelIds: [], events: { offline: false, online: false, cpu: false, memory: false, disk: false }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
      language: "en-US",
      timeZone: "UTC",
    })).status,
  ).toBe(200);
  expect((await call("POST", "/api/monitors", { name: "Shop", url: `http://127.0.0.1:${target.port}/`, retries: 0, interval: 1 })).status).toBe(201);

  const titles = () => messages.map((m) => m.title);
  await until("two reminders", () => titles().filter((x) => x === "🔴 Monitor still down: Shop").length >= 2, 6 * MINUTE_MS + 10_000);
  expect(titles()[0]).toBe("🔴 Monitor down: Shop");

  // The latest reminder's link, as the message shows it: the page a person opens, whose button POSTs here.
  const latest = messages.at(-1)!;
  const line = latest.lines.find((l) => l.startsWith("Acknowledge: "))!;
  const link = line.slice("Acknowledge: ".length);
  expect(link).toBe(latest.events[0]!.facts.ackUrl!);
  expect(link.startsWith(`${publicUrl}/ack/`)).toBe(true);
  const tokenPart = link.slice(`${publicUrl}/ack/`.length);
  const asked = await fetch(`${publicUrl}/api/ack/${tokenPart}`);
  expect(((await asked.json()) as { problem: { ack: unknown } }).problem.ack).toBeNull();
  const done = await fetch(`${publicUrl}/api/ack/${tokenPart}`, { method: "POST" });
  expect(done.status).toBe(200);
  expect(((await done.json()) as { problem: { ack: { by: string } } }).problem.ack.by).toBe("via link (Hook)");
  const acknowledgedAt = Date.now();

  // A reminder pass already under way may still send one; after that, nothing for three reminder minutes.
  await Bun.sleep(MINUTE_MS);
  const count = messages.length;
  await Bun.sleep(3 * MINUTE_MS);
  expect(messages.length).toBe(count);
  expect(messages.filter((m) => m.at > acknowledgedAt + MINUTE_MS)).toEqual([]);
  // The monitor is still down: the acknowledgement silenced it, it did not resolve it.
  expect((await call("GET", "/api/problems")).body.problems).toMatchObject([{ targetName: "Shop", condition: "down", ack: { via: "link" } }]);
}, 60_000);
