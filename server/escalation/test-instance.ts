// For the escalation tests that page people: a local webhook receiver, a target that always fails, the wired services
// on a movable clock and the test app over them; `advance` lets the rules, escalation and the outbox do what is due.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServices, type Services } from "../app";
import type { Db } from "../db/database";
import { testDb } from "../db/test-db";
import { startFake } from "../notifications/providers/test-fake";
import { testApp } from "../test-support";

export async function escalationInstance(cleanups: (() => unknown)[]) {
  const hook = startFake(() => new Response("ok"));
  cleanups.push(() => hook.stop());
  const target: Server = createServer((_req, res) => res.writeHead(500).end("x"));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  cleanups.push(() => new Promise((r) => (target.closeAllConnections(), target.close(r))));
  const db: Db = await testDb();
  let skew = 0;
  const now = () => Date.now() + skew;
  const services: Services = await createServices(db, { now, notifications: { send: { timeoutMs: 1_000 } } });
  cleanups.push(async () => {
    await services.escalation.stop().catch(() => {});
    await services.notifications.stop().catch(() => {});
    await db.close();
  });
  const t = await testApp({ db, services });
  /** The listeners settle, the clock moves `ms`, the escalation timer looks, and a moment later the outbox sends. */
  const advance = async (ms: number) => {
    await services.notifications.idle();
    await services.escalation.idle();
    skew += ms;
    await services.escalation.tick();
    skew += 1_000;
    await services.notifications.outbox.tick();
  };
  return { ...t, hook, db, services, now, advance, targetUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` };
}
