// Test support (not a test) for the monthly report mails: a monitor checked every 10 minutes through October 2026
// with one outage across Berlin's midnight of the 10th, an SMTP channel on a local smtp-server, and what arrives
// there parsed back.
import { expect } from "bun:test";
import { simpleParser, type ParsedMail } from "mailparser";
import { sql } from "drizzle-orm";
import type { Arrived } from "../notifications/providers/test-smtp";
import type { Reply } from "../test-support";
import type { Db } from "../db/database";

export const MIN = 60_000;
export const Z = (iso: string) => Date.parse(iso);
/** The outage's failed checks; the check after the last passes. */
export const OUTAGE = ["2026-10-10T21:50:00Z", "2026-10-10T22:00:00Z", "2026-10-10T22:10:00Z"].map(Z);

type Call = <T = Record<string, any>>(method: string, path: string, opts?: { token?: string; body?: unknown }) => Promise<Reply<T>>;

/** The monitor "Shop & Co <EU>" (a name to escape) with October's checks, and an SMTP channel to `smtpPort`. */
export async function reportFixture(t: { call: Call; db: Db; services: { monitors: { resync(): Promise<void> } } }, token: string, smtpPort: number) {
  const created = await t.call("POST", "/api/monitors", { token, body: { name: "Shop & Co <EU>", url: "http://127.0.0.1:9/", interval: 60, active: false, tags: ["team:web"] } });
  expect(created.status).toBe(201);
  const monitorId = created.body.monitor.id as number;
  await t.db.exec(sql`UPDATE monitors SET created_at = ${Z("2026-09-01T00:00:00Z")} WHERE id = ${monitorId}`);
  await t.services.monitors.resync();
  const failed = new Set(OUTAGE);
  const rows = [];
  for (let time = Z("2026-09-30T20:00:00Z"); time < Z("2026-11-01T12:00:00Z"); time += 10 * MIN) {
    const up = !failed.has(time);
    rows.push({ monitorId, time, up, maintenance: false, error: up ? null : "Connection refused", responseTime: up ? 100 : null });
  }
  for (let i = 0; i < rows.length; i += 500) await t.db.orm.insert(t.db.t.checkResults).values(rows.slice(i, i + 500));
  const channel = await t.call("POST", "/api/notifications/channels", {
    token,
    body: { name: "Mail", type: "smtp", config: { host: "127.0.0.1", port: smtpPort, security: "none", from: "Vigil <vigil@example.com>", to: "channel-default@example.com" } },
  });
  expect(channel.status).toBe(201);
  return { monitorId, channelId: channel.body.channel.id as number };
}

/** A parsed mail with the CSV attachments as rows of cells. */
export async function parse(arrived: Arrived) {
  const mail: ParsedMail = await simpleParser(arrived.raw);
  const csv = (name: string) => {
    const file = mail.attachments.find((a) => a.filename?.endsWith(`-${name}.csv`));
    expect(file).toBeDefined();
    expect(file!.contentType).toBe("text/csv");
    return file!.content.toString("utf8").trim().split("\r\n").map((line) => line.split(","));
  };
  return { mail, html: String(mail.html), text: mail.text ?? "", monitorsCsv: csv("monitors"), outagesCsv: csv("outages") };
}

export async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}
