// Escalation on the real clock, in the fully wired server (createServices + createApp, started through lifecycle.ts
// as main.ts does) with a minute of the settings shortened to 1.5 s: a monitor's real checks fail, step 1 pages at
// once, step 2 a "minute" later by the running timer, never twice; the recovery reaches both. Both engines.
import { afterEach, expect, test } from "bun:test";
import { wiredApp } from "../test-support";

const MINUTE_MS = 1_500;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
}, 30_000);

async function until(what: string, ok: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

test("the running timer pages step 2 one policy minute after step 1, once; the recovery reaches both", async () => {
  // Each channel's messages, with when they arrived.
  const got = new Map<string, { title: string; at: number; time: number }[]>();
  const hook = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      const path = new URL(req.url).pathname;
      const { events } = (await req.json()) as { events: { kind: string; time: number; facts: { escalationStep?: number } }[] };
      const title = `${events[0]!.kind}${events[0]!.facts.escalationStep ? ` step ${events[0]!.facts.escalationStep}` : ""}`;
      got.set(path, [...(got.get(path) ?? []), { title, at: Date.now(), time: events[0]!.time }]);
      return new Response("ok");
    },
  });
  cleanups.push(() => hook.stop(true));
  let status = 500;
  const target = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("x", { status }) });
  cleanups.push(() => target.stop(true));

  const t = await wiredApp({ minuteMs: MINUTE_MS });
  cleanups.push(t.stop);
  const { token } = await t.signUp("admin");
  const call = <T = Record<string, any>>(method: string, path: string, body?: unknown) => t.call<T>(method, path, { token, body });
  const channel = async (name: string) => (await call<{ channel: { id: number } }>("POST", "/api/notifications/channels", { name, type: "webhook", config: { url: `http://127.0.0.1:${hook.port}/${name}` } })).body.channel.id;
  const [lead, manager] = [await channel("lead"), await channel("manager")];
  expect((await call("POST", "/api/escalation-policies", { name: "On call", steps: [{ channelIds: [lead], waitMinutes: 1 }, { channelIds: [manager], waitMinutes: 1 }], isDefault: true })).status).toBe(201);
  // No channel of its own: the policy alone pages.
  const made = await call<{ monitor: { id: number } }>("POST", "/api/monitors", { name: "Shop", url: `http://127.0.0.1:${target.port}/`, retries: 0, interval: 1 });
  expect(made.status).toBe(201);

  const of = (path: string) => got.get(path) ?? [];
  await until("step 1", () => of("/lead").length === 1, 10_000);
  await until("step 2", () => of("/manager").length === 1, 3 * MINUTE_MS + 2_000);
  // Paged (the events' times) a policy minute apart; delivered (arrival) within two. Step 1's delivery may be late on a
  // busy machine, so the lower bound is on when each was paged, not on when it arrived.
  expect(of("/manager")[0]!.time - of("/lead")[0]!.time).toBeGreaterThanOrEqual(MINUTE_MS - 100);
  expect(of("/manager")[0]!.at - of("/lead")[0]!.at).toBeLessThan(2 * MINUTE_MS + 1_000);
  expect(of("/manager")[0]!.title).toBe("down step 2");

  status = 200;
  await until("the recovery to both", () => of("/lead").length === 2 && of("/manager").length === 2, 3 * MINUTE_MS + 5_000);
  await Bun.sleep(2 * MINUTE_MS);
  expect(of("/lead").map((m) => m.title)).toEqual(["down step 1", "recovery"]);
  expect(of("/manager").map((m) => m.title)).toEqual(["down step 2", "recovery"]);
}, 60_000);
