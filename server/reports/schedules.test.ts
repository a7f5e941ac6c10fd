// Monthly report mails on both engines, through a real SMTP server (smtp-server on a free port): what the mail says and
// carries, once per month across two nodes and a restart, not before the month has ended in the schedule's zone nor
// before its last hour is rolled up, retries of temporary failures only, Send now, validation and who may do what.
import { afterEach, describe, expect, test } from "bun:test";
import { createServices } from "../app";
import { testDb } from "../db/test-db";
import { startSmtp, stopSmtp } from "../notifications/providers/test-smtp";
import { testApp } from "../test-support";
import type { Report, ReportSchedule } from "./public";
import { MIN, OUTAGE, parse, reportFixture, Z } from "./schedule-fixture";
import { createReportScheduleService, MAX_ATTEMPTS } from "./schedules";

afterEach(() => stopSmtp());

async function setup(smtpOptions: Parameters<typeof startSmtp>[0] = {}) {
  const smtp = await startSmtp(smtpOptions);
  let clock = Z("2026-10-15T12:00:00Z");
  const db = await testDb();
  const services = await createServices(db, { reports: { now: () => clock } });
  const t = await testApp({ db, services });
  const admin = await t.signUp("alice");
  const fixture = await reportFixture(t, admin.token, smtp.port);
  const call = <T = Record<string, any>>(method: string, path: string, body?: unknown, token = admin.token) => t.call<T>(method, path, { token, body });
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await call<{ schedule: ReportSchedule }>("POST", "/api/report-schedules", {
      name: "Monthly SLA",
      targetKind: "monitor",
      targetRef: String(fixture.monitorId),
      zone: "Europe/Berlin",
      language: "en-US",
      channelId: fixture.channelId,
      recipients: ["cto@example.com", "ops@example.com"],
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.schedule;
  };
  const schedule = async (id: number) => (await call<{ schedule: ReportSchedule }>("GET", `/api/report-schedules/${id}`)).body.schedule;
  /** Another node's (or a restarted process's) timer over the same database, at the test's clock. */
  const node = (leads = () => true) =>
    createReportScheduleService({
      leads,
      db,
      deps: { db, monitors: services.monitors, groups: services.monitors.groups, maintenance: services.maintenance, statusPages: services.status },
      now: () => clock,
      send: { timeoutMs: 5_000 },
    });
  const rollUp = (until: number) => services.monitors.history.rollUp(until + 3 * 60_000);
  return { ...t, ...fixture, smtp, admin, call, create, schedule, node, rollUp, setClock: (at: number) => void (clock = at) };
}

describe("monthly report mails", () => {
  test("the month's report, once it has ended in the zone and its last hour is rolled up: recipients, subject, tables, CSVs", async () => {
    const s = await setup();
    const created = await s.create();
    // Made in October: its first mail is October's.
    expect(created).toMatchObject({ lastPeriod: "2026-09", lastSentAt: null, lastError: null, enabled: true, language: "en-US" });
    // 1 November 01:30 in Berlin: October is over there, but nothing is rolled up yet, then only until 23:00 Berlin.
    s.setClock(Z("2026-11-01T00:30:00Z"));
    await s.services.reports.tick();
    await s.rollUp(Z("2026-10-31T22:00:00Z"));
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(0);
    await s.rollUp(Z("2026-11-01T00:00:00Z"));
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(1);

    const arrived = s.smtp.arrived[0]!;
    expect(arrived.to.sort()).toEqual(["cto@example.com", "ops@example.com"]);
    const { mail, html, text, monitorsCsv, outagesCsv } = await parse(arrived);
    const report = (await s.call<{ report: Report }>("GET", `/api/reports/monitor/${s.monitorId}?period=2026-10&zone=Europe/Berlin`)).body.report;
    const availability = report.summary.availability!;
    expect(availability).toBeGreaterThan(99.9);
    expect(availability).toBeLessThan(100);
    expect(mail.subject).toBe(`Vigil report: Shop & Co <EU> — October 2026 — ${availability.toFixed(3)} %`);
    expect(html).toContain(`${availability.toFixed(3)} %`);
    // Escaped, in the zone (Berlin's 23:50 on the 10th), with its cause and length.
    expect(html).toContain("Shop &amp; Co &lt;EU&gt;");
    expect(html).not.toContain("<EU>");
    expect(html).toContain("2026-10-10 23:50:00 (UTC+02:00)");
    expect(html).toContain("Connection refused");
    expect(html).toContain("30m");
    expect(text).toContain("2026-10-10 23:50:00 (UTC+02:00)");
    expect(text).toContain(`Availability: ${availability.toFixed(3)} %`);
    expect(monitorsCsv[0]).toContain("availability_percent");
    expect(monitorsCsv[1]![1]).toBe("Shop & Co <EU>");
    expect(Number(monitorsCsv[1]![3])).toBe(availability);
    expect(outagesCsv).toHaveLength(2);
    expect(outagesCsv[1]!.slice(2, 5)).toEqual([new Date(OUTAGE[0]!).toISOString(), "2026-10-10T22:20:00.000Z", "1800"]);

    const after = await s.schedule(created.id);
    expect(after).toMatchObject({ lastPeriod: "2026-10", lastError: null, lastSentAt: Z("2026-11-01T00:30:00Z") });
    // Ticking on through November sends nothing more.
    s.setClock(Z("2026-11-20T00:00:00Z"));
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(1);
  }, 30_000);

  test("in Chinese when the schedule says so", async () => {
    const s = await setup();
    await s.create({ language: "zh-CN", zone: "Asia/Shanghai" });
    s.setClock(Z("2026-11-01T01:00:00Z"));
    await s.rollUp(Z("2026-11-01T00:00:00Z"));
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(1);
    const { mail, html, text } = await parse(s.smtp.arrived[0]!);
    expect(mail.subject).toMatch(/^Vigil 报告：Shop & Co <EU> — 2026年10月 — \d+\.\d{3} %$/);
    expect(html).toContain("可用率");
    expect(html).toContain("2026-10-11 05:50:00 (UTC+08:00)");
    expect(text).toContain("故障时长");
  }, 30_000);

  test("two nodes ticking at once send one mail; a restarted node sends no second; a node that is not the leader none", async () => {
    const s = await setup();
    const created = await s.create();
    s.setClock(Z("2026-11-02T00:00:00Z"));
    await s.rollUp(Z("2026-11-01T06:00:00Z"));
    await s.node(() => false).tick();
    expect(s.smtp.arrived).toHaveLength(0);
    const [a, b] = [s.node(), s.node()];
    await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    expect(s.smtp.arrived).toHaveLength(1);
    expect((await s.schedule(created.id)).lastPeriod).toBe("2026-10");
    await Promise.all([s.node().tick(), s.services.reports.tick()]);
    expect(s.smtp.arrived).toHaveLength(1);
  }, 30_000);

  test("not before the month has ended in the schedule's zone: Kiritimati (UTC+14) mails October a day before Pago Pago (UTC-11)", async () => {
    const s = await setup();
    const kiritimati = await s.create({ name: "Kiritimati", zone: "Pacific/Kiritimati" });
    const pagoPago = await s.create({ name: "Pago Pago", zone: "Pacific/Pago_Pago" });
    // 1 November 10:30 UTC: 2 November 00:30 in Kiritimati, still 31 October 23:30 in Pago Pago.
    s.setClock(Z("2026-11-01T10:30:00Z"));
    await s.rollUp(Z("2026-11-01T10:00:00Z"));
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(1);
    expect((await parse(s.smtp.arrived[0]!)).mail.subject).toContain("October 2026");
    expect((await s.schedule(kiritimati.id)).lastPeriod).toBe("2026-10");
    expect((await s.schedule(pagoPago.id)).lastPeriod).toBe("2026-09");
    // An hour later October is over in Pago Pago too, and its last hour rolled up.
    s.setClock(Z("2026-11-01T11:30:00Z"));
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(1); // 11:00-12:00 UTC not rolled up yet
    await s.rollUp(Z("2026-11-01T11:00:00Z"));
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(2);
    expect((await s.schedule(pagoPago.id)).lastPeriod).toBe("2026-10");
  }, 30_000);

  test("a disabled schedule sends nothing; enabled again it sends the last month", async () => {
    const s = await setup();
    const created = await s.create({ enabled: false });
    s.setClock(Z("2026-11-02T00:00:00Z"));
    await s.rollUp(Z("2026-11-01T06:00:00Z"));
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(0);
    expect((await s.call("PUT", `/api/report-schedules/${created.id}`, { enabled: true })).status).toBe(200);
    await s.services.reports.tick();
    expect(s.smtp.arrived).toHaveLength(1);
  }, 30_000);

  /** A mail server refusing every MAIL FROM with `refuse.code` (null: accepting), counting the attempts. */
  const refusing = (refuse: { code: number | null; attempts: number }) => ({
    onMailFrom(_address: unknown, _session: unknown, done: (err?: Error) => void) {
      refuse.attempts++;
      if (refuse.code === null) return done();
      done(Object.assign(new Error(refuse.code === 451 ? "Try again later" : "Sender refused"), { responseCode: refuse.code }));
    },
  });

  test("a temporary refusal (451) releases the month: a later tick, not the next minute, tries again", async () => {
    const refuse = { code: 451 as number | null, attempts: 0 };
    const s = await setup(refusing(refuse));
    const created = await s.create();
    const at = Z("2026-11-02T00:00:00Z");
    s.setClock(at);
    await s.rollUp(Z("2026-11-01T06:00:00Z"));
    await s.services.reports.tick(at);
    expect(await s.schedule(created.id)).toMatchObject({ lastPeriod: "2026-09" });
    expect((await s.schedule(created.id)).lastError).toMatch(/^2026-10: SMTP 451/);
    await s.services.reports.tick(at + 60_000);
    expect(refuse.attempts).toBe(1);
    refuse.code = null;
    await s.services.reports.tick(at + 6 * 60_000);
    expect(refuse.attempts).toBe(2);
    expect(s.smtp.arrived).toHaveLength(1);
    expect(await s.schedule(created.id)).toMatchObject({ lastPeriod: "2026-10", lastError: null });
  }, 30_000);

  test("a final refusal (550) keeps the month claimed and says why; temporary ones stop after MAX_ATTEMPTS", async () => {
    const refuse = { code: 550 as number | null, attempts: 0 };
    const s = await setup(refusing(refuse));
    const created = await s.create();
    let at = Z("2026-11-02T00:00:00Z");
    s.setClock(at);
    await s.rollUp(Z("2026-11-01T06:00:00Z"));
    await s.services.reports.tick(at);
    await s.services.reports.tick(at + 3_600_000);
    expect(refuse.attempts).toBe(1);
    expect(await s.schedule(created.id)).toMatchObject({ lastPeriod: "2026-10" });
    expect((await s.schedule(created.id)).lastError).toMatch(/^2026-10: SMTP 550/);

    // December: busy every time. Ticks every 3 hours for five days: MAX_ATTEMPTS attempts, then the month is left.
    refuse.code = 451;
    refuse.attempts = 0;
    at = Z("2026-12-02T00:00:00Z");
    await s.rollUp(Z("2026-12-01T06:00:00Z"));
    for (let i = 0; i < 40; i++, at += 3 * 3_600_000) await s.services.reports.tick(at);
    expect(refuse.attempts).toBe(MAX_ATTEMPTS);
    expect(await s.schedule(created.id)).toMatchObject({ lastPeriod: "2026-11" });
    expect((await s.schedule(created.id)).lastError).toMatch(/^2026-11: SMTP 451/);
    expect(s.smtp.arrived).toHaveLength(0);
  }, 60_000);

  test("the retry count and the next try are kept in the row: a restarted process (or a new leader) goes on counting; an edit tries at once", async () => {
    const refuse = { code: 451 as number | null, attempts: 0 };
    const s = await setup(refusing(refuse));
    const created = await s.create();
    const at = Z("2026-11-02T00:00:00Z");
    s.setClock(at);
    await s.rollUp(Z("2026-11-01T06:00:00Z"));
    await s.services.reports.tick(at);
    await s.services.reports.tick(at + 5 * MIN);
    expect(refuse.attempts).toBe(2);
    expect(await s.schedule(created.id)).toMatchObject({ lastPeriod: "2026-09", retryAttempts: 2, retryAfter: at + 5 * MIN + 15 * MIN });

    // The process restarts: its new timer waits for the stored time, then makes the third attempt, not a first one.
    const restarted = s.node();
    await restarted.tick(at + 10 * MIN);
    expect(refuse.attempts).toBe(2);
    await restarted.tick(at + 20 * MIN);
    expect(refuse.attempts).toBe(3);
    expect(await s.schedule(created.id)).toMatchObject({ retryAttempts: 3, retryAfter: at + 20 * MIN + 60 * MIN });

    // An edit (other recipients) is tried at the next tick; once sent, the count is cleared.
    refuse.code = null;
    expect((await s.call("PUT", `/api/report-schedules/${created.id}`, { recipients: ["cfo@example.com"] })).status).toBe(200);
    await restarted.tick(at + 21 * MIN);
    expect(refuse.attempts).toBe(4);
    expect(s.smtp.arrived).toHaveLength(1);
    expect(await s.schedule(created.id)).toMatchObject({ lastPeriod: "2026-10", lastError: null, retryAttempts: 0, retryAfter: null });
  }, 30_000);

  test("Send now mails last month's report at once and leaves the monthly mail alone; a mail server that is down is a 502", async () => {
    const s = await setup();
    const created = await s.create({ zone: "UTC" });
    s.setClock(Z("2026-11-28T08:00:00Z"));
    const sent = await s.call("POST", `/api/report-schedules/${created.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.period).toBe("2026-10");
    expect(s.smtp.arrived).toHaveLength(1);
    expect((await parse(s.smtp.arrived[0]!)).mail.subject).toContain("October 2026");
    expect(await s.schedule(created.id)).toMatchObject({ lastPeriod: "2026-09", lastSentAt: null });
    await stopSmtp();
    const down = await s.call("POST", `/api/report-schedules/${created.id}/send`);
    expect(down.status).toBe(502);
    expect(down.body.code).toBe("PROVIDER_ERROR");
  }, 30_000);
});
