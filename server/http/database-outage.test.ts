// A PostgreSQL outage as the clients see it: 503 DATABASE_UNAVAILABLE with Retry-After (not 500 INTERNAL) for as
// long as it lasts, and normal answers again once the database is back. The outage is a TCP relay in front of the
// test server that stops listening and cuts its connections: the client library sees exactly a server going away.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { openPostgres } from "../db/postgres";
import { TEST_DATABASE_URL, testSchema } from "../db/test-db";
import { createLogger } from "../log";
import { testApp } from "../test-support";

/** Relays 127.0.0.1:port to the test PostgreSQL; `down()` refuses and cuts connections, `up()` serves again. */
async function relay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const s of [client, upstream] as Socket[]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.on("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    port: () => port,
    up: listen,
    down: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server!.close(() => resolve());
      }),
  };
}

describe.skipIf(!TEST_DATABASE_URL)("a PostgreSQL outage (PostgreSQL only)", () => {
  let net: Awaited<ReturnType<typeof relay>>;
  let t: Awaited<ReturnType<typeof testApp>>;
  let drop: () => Promise<void>;
  const lines: string[] = [];

  beforeAll(async () => {
    const target = new URL(TEST_DATABASE_URL!);
    net = await relay(target);
    const made = await testSchema();
    drop = made.drop;
    const url = new URL(TEST_DATABASE_URL!);
    url.port = String(net.port());
    const db = await openPostgres(url.toString(), { schema: made.schema, max: 4, idleTimeout: 1 });
    t = await testApp({ db, log: createLogger("warn", (l) => lines.push(l)) });
  });

  afterAll(async () => {
    await net.up().catch(() => {});
    await t.db.close();
    await net.down();
    await drop();
  });

  test("sign-in and signed-in calls answer 503 DATABASE_UNAVAILABLE with Retry-After, then recover", async () => {
    const { token } = await t.signUp("alice");
    expect((await t.call("GET", "/api/monitors", { token })).status).toBe(200);

    await net.down();
    for (const res of [
      await t.call("POST", "/api/auth/login", { body: { username: "alice", password: "correct horse" } }),
      await t.call("GET", "/api/monitors", { token }),
      await t.call("GET", "/api/users", { token }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ success: false, code: "DATABASE_UNAVAILABLE" });
      expect(res.body.message).toContain("database is unreachable");
      expect(res.headers.get("retry-after")).toBe("5");
    }
    // Three failed requests, one log line (the repeats are counted, not each written).
    expect(lines.filter((l) => l.includes("database is unreachable"))).toHaveLength(1);
    expect(lines.join("\n")).not.toContain("unhandled error");

    await net.up();
    const back = await t.call("POST", "/api/auth/login", { body: { username: "alice", password: "correct horse" } });
    expect(back.status).toBe(200);
    expect((await t.call("GET", "/api/users", { token: back.body.token as string })).status).toBe(200);
  });
});
