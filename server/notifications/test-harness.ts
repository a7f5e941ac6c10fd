// Set-up of the end-to-end notification tests: an app over a fresh database (SQLite or PostgreSQL) with a clock the
// test moves, a webhook channel to a local fake that gets every event (test-channel.ts), and settle(): the rules handle
// what happened, the clock moves on, the outbox sends what fell due. Everything opened is closed after each test.
import { afterEach } from "bun:test";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { testApp } from "../test-support";
import { webhookForEverything } from "./test-channel";

/** Call at the top of a test file; `hookUrl` gives the webhook fake's address at set-up time. */
export function notificationHarness(hookUrl: () => string) {
  const opened: { services: Services; db: Db }[] = [];
  afterEach(async () => {
    for (const { services, db } of opened.splice(0)) {
      await services.notifications.stop().catch(() => {});
      await db.close().catch(() => {});
    }
  });

  /** `publicUrl`: the instance's public address (--public-url): alerts then carry acknowledgement links. */
  return async function setup({ publicUrl }: { publicUrl?: string } = {}) {
    const db = await testDb();
    let skew = 0;
    const now = () => Date.now() + skew;
    const services = await createServices(db, { now, notifications: { send: { timeoutMs: 1_000 }, publicUrl } });
    opened.push({ services, db });
    const t = await testApp({ db, services });
    const { token } = await t.signUp("alice");
    const channel = await webhookForEverything(t.call, token, hookUrl());
    const settle = async (ms = 1_000) => {
      await services.notifications.idle();
      skew += ms;
      await services.notifications.outbox.tick();
    };
    return { ...t, token, channel, now, settle, advanceClock: (ms: number) => void (skew += ms) };
  };
}
