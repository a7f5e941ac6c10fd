import { describe, expect, test } from "bun:test";
import { createServices } from "../../../app";
import { testApp } from "../../../test-support";
import type { CheckResult, MonitorHistory, PublicMonitor } from "../../public";
import { systemPinger } from "./pinger";

// Ping monitors through the API (both engines): created with their defaults, checked against 127.0.0.1 with this
// machine's pinger, the figures on the result, the monitor, the history and after a restart; and bad input.

const pinger = systemPinger();

async function signedIn() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const create = (body: Record<string, unknown>) => t.call<{ monitor: PublicMonitor }>("POST", "/api/monitors", { token, body: { name: "gateway", type: "ping", ...body } });
  return { ...t, token, create };
}

describe("ping monitors", () => {
  test("defaults: 3 packets, automatic family, down only when none comes back; the target is the host", async () => {
    const t = await signedIn();
    const r = await t.create({ host: "LOCALHOST." });
    expect(r.status).toBe(201);
    expect(r.body.monitor).toMatchObject({ type: "ping", host: "localhost", target: "localhost", pingCount: 3, pingFamily: "auto", pingLossThreshold: 100, ping: null, url: "" });
    const support = await t.call<{ method: string | null }>("GET", "/api/monitors/ping-support", { token: t.token });
    expect(support.body.method).toBe(pinger?.method ?? null);
  });

  test.skipIf(!pinger)("127.0.0.1: up, the figures on the result, the monitor, the history, and after a restart", async () => {
    const t = await signedIn();
    const { monitor } = (await t.create({ host: "127.0.0.1", pingCount: 2, timeout: 2 })).body;
    const check = await t.call<{ result: CheckResult; monitor: PublicMonitor }>("POST", `/api/monitors/${monitor.id}/check`, { token: t.token });
    expect(check.body.result).toMatchObject({ status: "up", httpStatus: null, error: null, ping: { sent: 2, received: 2, loss: 0 } });
    expect(check.body.monitor.ping).toEqual(check.body.result.ping!);
    const history = await t.call<{ history: MonitorHistory }>("GET", `/api/monitors/${monitor.id}/history`, { token: t.token });
    expect(history.body.history.day.latest?.ping).toEqual(check.body.result.ping!);
    // A restart reads the latest figures back from the stored check.
    await t.services.monitors.writer.flush();
    const again = await createServices(t.db);
    expect(again.monitors.get(monitor.id)?.ping).toEqual(check.body.result.ping!);
  });

  test.skipIf(!pinger)("a loss threshold it cannot meet with one packet lost of one: down, saying how many came back", async () => {
    const t = await signedIn();
    const { monitor } = (await t.create({ host: "203.0.113.1", pingCount: 1, timeout: 1, retries: 0 })).body;
    const check = await t.call<{ result: CheckResult; monitor: PublicMonitor }>("POST", `/api/monitors/${monitor.id}/check`, { token: t.token });
    expect(check.body.result).toMatchObject({ status: "down", error: "packet loss 100 % (0 of 1 replies)", ping: { loss: 100, received: 0 } });
    expect(check.body.monitor.status).toBe("down");
  });

  test("bad input is refused with a clear message", async () => {
    const t = await signedIn();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ host: "127.0.0.1", pingCount: 0 }, 400, "Packets must be a whole number from 1 to 10"],
      [{ host: "127.0.0.1", pingCount: 11 }, 400, "Packets must be a whole number from 1 to 10"],
      [{ host: "127.0.0.1", pingFamily: "ipx" }, 400, "The address family must be one of auto, ipv4, ipv6"],
      [{ host: "127.0.0.1", pingLossThreshold: 0 }, 400, "The packet loss threshold must be a whole percentage from 1 to 100"],
      [{ host: "127.0.0.1", pingLossThreshold: 101 }, 400, "The packet loss threshold must be a whole percentage from 1 to 100"],
      [{ host: "http://example.com" }, 400, "Host must be a host name or an IP address"],
      [{ host: "" }, 400, "Host must be a host name or an IP address"],
      [{ host: "::1", pingFamily: "ipv4" }, 400, "::1 is an IPv6 address: choose IPv6 or automatic"],
      [{ host: "127.0.0.1", timeout: 2, maxResponseTime: 2000 }, 400, "The round-trip limit must be below the timeout"],
    ];
    for (const [body, status, message] of cases) {
      const r = await t.create(body);
      expect({ body, status: r.status, success: r.body.success }).toEqual({ body, status, success: false });
      expect(r.body.message).toContain(message);
    }
  });
});
