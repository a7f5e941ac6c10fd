// The monthly report mail on the real clock: the fully wired server (createServices + createApp, started and stopped
// through lifecycle.ts), its report timer ticking every 300 ms of real time and its rollups running as they do in
// production; only the mails' "now" is set to just after October ended. The mail must arrive at a real SMTP server,
// once, and not again after the server restarts over the same database. Both engines.
import { afterEach, describe, expect, test } from "bun:test";
import { createServices, type Services } from "../app";
import { testDb } from "../db/test-db";
import { startServices, stopServices } from "../lifecycle";
import { startSmtp, stopSmtp } from "../notifications/providers/test-smtp";
import { testApp } from "../test-support";
import type { ReportSchedule } from "./public";
import { parse, reportFixture, until, Z } from "./schedule-fixture";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await stopSmtp();
});

describe("monthly report mail on the real clock", () => {
  test("the wired server mails October once, shortly after it ended, and not again after a restart", async () => {
    const smtp = await startSmtp();
    const db = await testDb();
    cleanups.push(() => db.close());
    // Made mid-October; the timer then runs at 1 November 00:30 UTC, October's last hour long rolled up (the rollups
    // run on the real clock, weeks later).
    let clock = Z("2026-10-15T12:00:00Z");
    const wire = async () => {
      const services = await createServices(db, { reports: { tickMs: 300, now: () => clock } });
      const t = await testApp({ db, services });
      await startServices(services, { url: "http://127.0.0.1:1" });
      let stopped = false;
      const stop = async () => {
        if (stopped) return;
        stopped = true;
        await stopServices(services, async () => {});
      };
      cleanups.push(stop);
      return { t, services, stop };
    };
    const first = await wire();
    const admin = await first.t.signUp("alice");
    const fixture = await reportFixture(first.t, admin.token, smtp.port);
    const created = await first.t.call<{ schedule: ReportSchedule }>("POST", "/api/report-schedules", {
      token: admin.token,
      body: { name: "SLA", targetKind: "monitor", targetRef: String(fixture.monitorId), zone: "UTC", language: "en-US", channelId: fixture.channelId, recipients: ["cto@example.com"] },
    });
    expect(created.status).toBe(201);
    clock = Z("2026-11-01T00:30:00Z");
    const started = Date.now();
    // The first rollup runs 5 s after start; the next tick after it mails.
    await until("the report mail", () => smtp.arrived.length > 0, 25_000);
    expect(Date.now() - started).toBeLessThan(20_000);
    const { mail, html } = await parse(smtp.arrived[0]!);
    expect(mail.subject).toMatch(/^Vigil report: Shop & Co <EU> — October 2026 — 99\.\d{3} %$/);
    expect(html).toContain("Connection refused");
    expect(smtp.arrived[0]!.to).toEqual(["cto@example.com"]);
    const after = await first.t.call<{ schedule: ReportSchedule }>("GET", `/api/report-schedules/${created.body.schedule.id}`, { token: admin.token });
    expect(after.body.schedule).toMatchObject({ lastPeriod: "2026-10", lastError: null });

    // More ticks, then a restart over the same database: still one mail.
    await Bun.sleep(1_000);
    await first.stop();
    const second = await wire();
    expect((second.services as Services).reports.running).toBe(true);
    await Bun.sleep(2_000);
    expect(smtp.arrived).toHaveLength(1);
  }, 60_000);
});
