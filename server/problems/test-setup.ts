// Test support (not a test) for the acknowledgement tests: the notification harness (a fresh database on the engine
// under test, a clock the test moves, a webhook channel to a local fake), a local target a monitor checks, and the
// accounts: alice (admin), bob (editor), vera (viewer).
import { afterEach, beforeEach } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { notificationHarness } from "../notifications/test-harness";
import { startFake, type Fake } from "../notifications/providers/test-fake";
import type { Problem } from "./public";

export interface Sent {
  title: string;
  lines: string[];
  events: { kind: string; target: { id: number; name: string }; facts: Record<string, unknown> }[];
}

export function ackTestSetup() {
  let hook: Fake;
  let target: Server;
  let targetUrl = "";
  const state = { status: 200 };
  const harness = notificationHarness(() => `${hook.url}/hook`);

  beforeEach(async () => {
    hook = startFake(() => new Response("ok"));
    state.status = 200;
    target = createServer((_req, res) => void res.writeHead(state.status).end("x"));
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  });
  afterEach(async () => {
    hook.stop();
    target.closeAllConnections();
    await new Promise((r) => target.close(r));
  });

  /** Every message the webhook got. */
  const sent = () => hook.received.map((r) => r.json as Sent);

  return async function setup(options: { publicUrl?: string; reminderMinutes?: number } = {}) {
    const t = await harness({ publicUrl: options.publicUrl });
    const alice = { token: t.token };
    const bob = await t.signUp("bob");
    const vera = await t.signUp("vera");
    await t.call("PUT", `/api/users/${vera.user.id}`, { token: t.token, body: { username: "vera", role: "viewer" } });
    if (options.reminderMinutes) {
      await t.call("PUT", "/api/notifications/settings", {
        token: t.token,
        body: {
          monitor: { enabled: true, channelIds: [t.channel], events: { down: true, recovery: true }, reminderMinutes: options.reminderMinutes },
          agent: { enabled: true, channelIds: [t.channel], events: { offline: true, online: true, cpu: true, memory: true, disk: true }, thresholds: { cpu: 90, memory: 90, disk: 90 } },
          language: "en-US",
          timeZone: "UTC",
        },
      });
    }
    const monitor = (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token: t.token, body: { name: "Shop", url: targetUrl, retries: 0 } })).body.monitor.id;
    /** The target answers `status`; the monitor is checked now and what is due is sent. */
    const check = async (status: number) => {
      state.status = status;
      await t.call("POST", `/api/monitors/${monitor}/check`, { token: t.token });
      await t.settle(61_000); // past the outbox's storm pacing
    };
    const problems = async (token = t.token) => (await t.call<{ problems: Problem[] }>("GET", "/api/problems", { token })).body.problems;
    const ack = (token: string, body: unknown = { targetType: "monitor", targetId: monitor, condition: "down" }) =>
      t.call<{ problem: Problem }>("POST", "/api/problems/ack", { token, body });
    /** The reminder pass, then what it queued sent. */
    const remind = async () => {
      await t.services.notifications.rules.remind();
      await t.settle(61_000);
    };
    return { ...t, alice, bob, vera, monitor, check, problems, ack, remind, sent, hookUrl: () => hook.url };
  };
}
