// Issue 13.3: an open /api/live socket ends the moment its session does — disabled, deleted, password changed (by
// the user or reset by an admin), or expired — not up to a minute later.
import { afterEach, describe, expect, test } from "bun:test";
import { PASSWORD, testApp } from "../test-support";

interface OpenSocket {
  types: string[];
  closed: Promise<{ code: number; at: number }>;
  ws: WebSocket;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function listening(tokenTtl = "7d") {
  const t = await testApp({ config: { tokenTtl, trustProxy: 0, links: { blog: "", video: "", tempMail: "" } } });
  const admin = await t.signUp("alice");
  const bob = await t.signUp("bob");
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  const port = t.app.server!.port;
  cleanups.push(async () => {
    t.services.live.close();
    await t.app.stop(true);
  });

  async function open(token: string): Promise<OpenSocket> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live?token=${token}`);
    const types: string[] = [];
    ws.onmessage = (e) => types.push(JSON.parse(String(e.data)).type);
    const closed = new Promise<{ code: number; at: number }>((resolve) => (ws.onclose = (e) => resolve({ code: e.code, at: Date.now() })));
    await new Promise((resolve) => (ws.onopen = resolve));
    for (let i = 0; i < 100 && types.length === 0; i++) await Bun.sleep(10);
    expect(types).toEqual(["hello"]);
    return { ws, types, closed };
  }

  /** Something every open socket would be told about. */
  const broadcast = () => t.call("POST", "/api/monitors", { token: admin.token, body: { name: "After", url: "http://127.0.0.1:9/x" } });

  return { ...t, admin, bob, open, broadcast };
}

/** Resolves with the close, or fails when the socket is still open after `ms`. */
async function closedWithin(socket: OpenSocket, ms: number) {
  return Promise.race([socket.closed, Bun.sleep(ms).then(() => ({ code: -1, at: Date.now() }))]);
}

describe("an open live socket ends with its session", () => {
  const cases: [string, (t: Awaited<ReturnType<typeof listening>>) => Promise<unknown>][] = [
    ["the user is disabled", (t) => t.call("PUT", `/api/users/${t.bob.user.id}`, { token: t.admin.token, body: { username: "bob", status: "disabled" } })],
    ["the user is deleted", (t) => t.call("DELETE", `/api/users/${t.bob.user.id}`, { token: t.admin.token })],
    ["an admin resets the password", (t) => t.call("POST", `/api/users/${t.bob.user.id}/change-password`, { token: t.admin.token, body: { newPassword: "a new password" } })],
    ["the user changes their password elsewhere", (t) => t.call("POST", `/api/users/${t.bob.user.id}/change-password`, { token: t.bob.token, body: { currentPassword: PASSWORD, newPassword: "a new password" } })],
  ];
  for (const [name, end] of cases) {
    test(`${name}: closed with 4001 within a second, and told nothing after`, async () => {
      const t = await listening();
      const bobSocket = await t.open(t.bob.token);
      const aliceSocket = await t.open(t.admin.token);
      const started = Date.now();
      const res = (await end(t)) as { status: number };
      expect(res.status).toBe(200);
      await t.broadcast();
      const closed = await closedWithin(bobSocket, 1000);
      expect(closed.code).toBe(4001);
      expect(closed.at - started).toBeLessThan(1000);
      for (let i = 0; i < 100 && !aliceSocket.types.includes("monitor.change"); i++) await Bun.sleep(10);
      expect(aliceSocket.types).toContain("monitor.change"); // the others' sockets go on
      expect(bobSocket.types).not.toContain("monitor.change");
      aliceSocket.ws.close();
    });
  }

  test("a change that leaves the session valid (a rename) keeps the socket open", async () => {
    const t = await listening();
    const bobSocket = await t.open(t.bob.token);
    expect((await t.call("PUT", `/api/users/${t.bob.user.id}`, { token: t.bob.token, body: { username: "robert" } })).status).toBe(200);
    await t.broadcast();
    for (let i = 0; i < 100 && !bobSocket.types.includes("monitor.change"); i++) await Bun.sleep(10);
    expect(bobSocket.types).toContain("monitor.change");
    expect((await closedWithin(bobSocket, 200)).code).toBe(-1);
    bobSocket.ws.close();
  });

  test("an expiring token's socket closes at its expiry", async () => {
    const t = await listening("2s");
    const { token } = await t.login("bob"); // a fresh 2 s token
    const exp = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).exp as number;
    const bobSocket = await t.open(token);
    const closed = await closedWithin(bobSocket, 4000);
    expect(closed.code).toBe(4001);
    expect(closed.at).toBeGreaterThanOrEqual(exp * 1000 - 50);
    expect(closed.at).toBeLessThan(exp * 1000 + 1000);
  });
});
