import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { rmSync } from "node:fs";
import { oldDatabase } from "../db/old-database";
import { openDatabase } from "../db/open";
import { testApp } from "../test-support";

// Three roles: admin, editor (the old "user"), viewer — what a viewer may see and do, who chooses roles, and the
// upgrade of existing accounts and invites.

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("migration 0017: users and pending invites with the old role 'user' become editors; admins stay admins", async () => {
  const { dir, path, db: old } = oldDatabase("0017");
  dirs.push(dir);
  old.run("INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES ('alice', 'h', 'admin', 1, 1), ('bob', 'h', 'user', 1, 1)");
  old.run("INSERT INTO invites (token_hash, role, created_by, created_at, expires_at) VALUES ('a', 'user', 1, 1, 9999999999999), ('b', 'admin', 1, 1, 9999999999999)");
  old.close();
  const db = await openDatabase(path);
  expect(await db.rows(sql`SELECT username, role FROM users ORDER BY id`)).toEqual([
    { username: "alice", role: "admin" },
    { username: "bob", role: "editor" },
  ]);
  expect(await db.rows(sql`SELECT role FROM invites ORDER BY id`)).toEqual([{ role: "editor" }, { role: "admin" }]);
  await db.close();
});

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const viewer = await t.signUp("vera");
  expect((await t.call("PUT", `/api/users/${viewer.user.id}`, { token: admin.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
  return { ...t, admin, viewer };
}

describe("a viewer", () => {
  test("reads everything the team sees and changes nothing: 403 READ_ONLY with a message that says why", async () => {
    const { call, admin, viewer } = await setup();
    const monitor = await call<any>("POST", "/api/monitors", { token: admin.token, body: { name: "Shop", url: "http://127.0.0.1:9/", active: false } });
    expect(monitor.status).toBe(201);
    for (const path of ["/api/monitors", `/api/monitors/${monitor.body.monitor.id}`, "/api/agents", "/api/notifications/channels", "/api/status-pages", "/api/maintenance", "/api/incidents", "/api/dashboard"]) {
      expect([path, (await call("GET", path, { token: viewer.token })).status]).toEqual([path, 200]);
    }
    const refusals: [string, string, unknown][] = [
      ["POST", "/api/monitors", { name: "x", url: "http://127.0.0.1:9/" }],
      ["PUT", `/api/monitors/${monitor.body.monitor.id}`, { name: "y" }],
      ["DELETE", `/api/monitors/${monitor.body.monitor.id}`, undefined],
      ["POST", `/api/monitors/${monitor.body.monitor.id}/check`, undefined],
      ["POST", "/api/notifications/channels", { name: "x", type: "webhook", config: { url: "http://127.0.0.1:9/" } }],
      ["POST", "/api/incidents", { title: "x", impact: "minor", update: { state: "investigating", message: "x" } }],
      ["POST", "/api/maintenance/start", { scope: "all", minutes: 30 }],
      ["GET", "/api/agents/tokens", undefined],
      ["POST", "/api/agents/tokens", undefined],
    ];
    for (const [method, path, body] of refusals) {
      const r = await call(method, path, { token: viewer.token, body });
      expect([method, path, r.status, r.body.code]).toEqual([method, path, 403, "READ_ONLY"]);
      expect(r.body.message).toContain("ask an admin for the editor role");
    }
    // Nothing changed behind the refusals.
    expect((await call<any>("GET", "/api/monitors", { token: admin.token })).body.monitors).toHaveLength(1);
  });

  test("changes its own profile and password, and makes read-only API tokens only", async () => {
    const { call, viewer } = await setup();
    expect((await call("PUT", `/api/users/${viewer.user.id}`, { token: viewer.token, body: { username: "vera", email: "vera@example.com" } })).status).toBe(200);
    const escalate = await call("PUT", `/api/users/${viewer.user.id}`, { token: viewer.token, body: { username: "vera", role: "admin" } });
    expect(escalate.status).toBe(403);
    const read = await call<any>("POST", "/api/tokens", { token: viewer.token, body: { name: "wallboard" } });
    expect([read.status, read.body.token.scope]).toEqual([201, "read"]);
    const write = await call("POST", "/api/tokens", { token: viewer.token, body: { name: "script", scope: "write" } });
    expect([write.status, write.body.code]).toEqual([403, "READ_ONLY"]);
    expect((await call("GET", "/api/monitors", { token: read.body.secret })).status).toBe(200);
  });

  test("sees a monitor without what could be a credential: header values, body, URL password, push token", async () => {
    const { call, admin, viewer } = await setup();
    const created = await call<any>("POST", "/api/monitors", {
      token: admin.token,
      body: { name: "API", url: "https://bot:s3cret@api.example.com/health", method: "POST", body: '{"key":"k-123"}', headers: [{ name: "Authorization", value: "Bearer t-456" }], active: false },
    });
    expect(created.status).toBe(201);
    const push = await call<any>("POST", "/api/monitors", { token: admin.token, body: { name: "Backup", type: "push", active: false } });
    expect(push.body.monitor.pushToken).toBeTruthy();
    const mine = await call<any>("GET", `/api/monitors/${created.body.monitor.id}`, { token: admin.token });
    expect(JSON.stringify(mine.body)).toContain("t-456");
    for (const reply of [await call("GET", `/api/monitors/${created.body.monitor.id}`, { token: viewer.token }), await call("GET", "/api/monitors", { token: viewer.token }), await call("GET", `/api/monitors/${push.body.monitor.id}`, { token: viewer.token })]) {
      const text = JSON.stringify(reply.body);
      for (const secret of ["s3cret", "t-456", "k-123", push.body.monitor.pushToken]) expect(text).not.toContain(secret);
    }
    const seen = (await call<any>("GET", `/api/monitors/${created.body.monitor.id}`, { token: viewer.token })).body.monitor;
    expect(seen.headers).toEqual([{ name: "Authorization", value: "••••" }]);
    expect(seen.url).toBe("https://••••@api.example.com/health");
  });
});

describe("choosing roles", () => {
  test("admins create and change users with any of the three roles; 'user' is still read as editor", async () => {
    const { call, admin } = await setup();
    for (const [role, stored] of [["viewer", "viewer"], ["editor", "editor"], ["admin", "admin"], ["user", "editor"]] as const) {
      const r = await call<any>("POST", "/api/users", { token: admin.token, body: { username: `u-${role}`, password: "correct horse", confirmPassword: "correct horse", role } });
      expect([r.status, r.body.user.role]).toEqual([201, stored]);
    }
    const bad = await call("POST", "/api/users", { token: admin.token, body: { username: "u-bad", password: "correct horse", confirmPassword: "correct horse", role: "owner" } });
    expect([bad.status, bad.body.message]).toEqual([400, "Role must be admin, editor or viewer"]);
  });

  test("invites carry their role; open registration gives the role the admin chose (viewer unless told)", async () => {
    const { call, admin } = await setup();
    const reg = await call<any>("GET", "/api/registration", { token: admin.token });
    expect(reg.body).toMatchObject({ open: false, role: "viewer" });
    const invite = await call<any>("POST", "/api/registration/invites", { token: admin.token, body: { role: "viewer" } });
    expect(invite.body.invite.role).toBe("viewer");
    const joined = await call<any>("POST", "/api/auth/register", { body: { username: "ivy", password: "correct horse", invite: invite.body.token } });
    expect(joined.status).toBe(201);
    expect((await call<any>("POST", "/api/auth/login", { body: { username: "ivy", password: "correct horse" } })).body.user.role).toBe("viewer");

    expect((await call("PUT", "/api/registration", { token: admin.token, body: { open: true } })).status).toBe(200);
    await call("POST", "/api/auth/register", { body: { username: "olga", password: "correct horse" } });
    expect((await call<any>("POST", "/api/auth/login", { body: { username: "olga", password: "correct horse" } })).body.user.role).toBe("viewer");
    const chosen = await call<any>("PUT", "/api/registration", { token: admin.token, body: { role: "editor" } });
    expect(chosen.body).toMatchObject({ open: true, role: "editor" });
    await call("POST", "/api/auth/register", { body: { username: "eddie", password: "correct horse" } });
    expect((await call<any>("POST", "/api/auth/login", { body: { username: "eddie", password: "correct horse" } })).body.user.role).toBe("editor");
    expect((await call("PUT", "/api/registration", { token: admin.token, body: { role: "root" } })).status).toBe(400);
  });
});
