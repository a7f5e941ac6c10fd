import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { SECRET_BODY } from "../auth/secrets";
import { PASSWORD, testApp } from "../test-support";
import { TOKENS_PER_USER_MAX, type CreatedApiToken, type PublicApiToken } from "./public";

// API tokens through the HTTP app: managed with a session on /api/tokens, accepted as a bearer credential everywhere
// else with their user's rights, refused once revoked, expired, or their user disabled or deleted.

const DAY = 86_400_000;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const user = await t.signUp("bob");
  /** Creates a token with a session; fails the test unless it is a 201. */
  const create = async (token: string, body: Record<string, unknown> = { name: "ci" }) => {
    const res = await t.call<CreatedApiToken>("POST", "/api/tokens", { token, body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const list = async (token: string) => (await t.call<{ tokens: PublicApiToken[] }>("GET", "/api/tokens", { token })).body.tokens;
  const row = async (id: number) => (await t.db.rows<Record<string, unknown>>(sql`SELECT * FROM api_tokens WHERE id = ${id}`))[0];
  const { apiTokens } = t.db.t;
  const setToken = (id: number, values: { expiresAt?: number; lastUsedAt?: number }) => t.db.orm.update(apiTokens).set(values).where(eq(apiTokens.id, id));
  const owners = () => t.db.orm.select({ user_id: apiTokens.userId }).from(apiTokens).orderBy(asc(apiTokens.id));
  return { ...t, admin, user, create, list, row, setToken, owners };
}

describe("managing tokens", () => {
  test("create shows the secret once; the list never does; the database keeps only its hash", async () => {
    const { call, admin, create, list, row } = await setup();
    const before = Date.now();
    const created = await call<CreatedApiToken>("POST", "/api/tokens", { token: admin.token, body: { name: "  Deploy script  ", expiresInDays: 30 } });
    expect(created.status).toBe(201);
    const { token, secret } = created.body;
    expect(created.body.success).toBe(true);
    expect(secret).toMatch(new RegExp(`^vgl_api_${SECRET_BODY}$`));
    expect(token).toMatchObject({ name: "Deploy script", prefix: secret.slice(0, 16), lastUsedAt: null, expired: false });
    expect(token.expiresAt! - token.createdAt).toBe(30 * DAY);
    expect(token.createdAt).toBeGreaterThanOrEqual(before);

    const listed = await list(admin.token);
    expect(listed).toEqual([token]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toContain(sha256(secret));

    const stored = (await row(token.id))!;
    expect(stored.token_hash).toBe(sha256(secret));
    expect(Object.values(stored)).not.toContain(secret);

    // A second token with no expiry; both listed, oldest first.
    const never = await create(admin.token, { name: "backup", expiresInDays: null });
    expect(never.token.expiresAt).toBeNull();
    expect(never.secret).not.toBe(secret);
    // Leaving expiresInDays out also means never.
    expect((await create(admin.token, { name: "cron" })).token.expiresAt).toBeNull();
    expect((await list(admin.token)).map((t) => t.name)).toEqual(["Deploy script", "backup", "cron"]);
  });

  test("revoke: the token is gone from the list and stops working at once; revoking again is a 404", async () => {
    const { call, admin, create, list } = await setup();
    const { token, secret } = await create(admin.token);
    expect((await call("GET", "/api/monitors", { token: secret })).status).toBe(200);
    const revoked = await call("DELETE", `/api/tokens/${token.id}`, { token: admin.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ success: true, message: "API token revoked" });
    expect(await list(admin.token)).toEqual([]);
    const after = await call("GET", "/api/monitors", { token: secret });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
    expect((await call("DELETE", `/api/tokens/${token.id}`, { token: admin.token })).status).toBe(404);
  });

  test("each user sees and revokes only their own tokens: another user's id is a 404 and the token keeps working", async () => {
    const { call, admin, user, create, list } = await setup();
    const mine = await create(user.token, { name: "ci" });
    // The same name is fine for someone else.
    const theirs = await create(admin.token, { name: "ci" });
    expect((await list(user.token)).map((t) => t.id)).toEqual([mine.token.id]);
    expect((await list(admin.token)).map((t) => t.id)).toEqual([theirs.token.id]);

    // Even an admin cannot revoke another user's token through this API.
    const res = await call("DELETE", `/api/tokens/${mine.token.id}`, { token: admin.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, code: "API_TOKEN_NOT_FOUND", message: "API token not found (already revoked?)" });
    expect((await call("GET", "/api/auth/me", { token: mine.secret })).status).toBe(200);

    for (const id of ["abc", "0", "1.5", "-1"]) {
      const bad = await call("DELETE", `/api/tokens/${id}`, { token: user.token });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ success: false, message: "Invalid token id" });
    }
  });

  test("managing tokens takes a session: an API token gets 403 on list, create and revoke", async () => {
    const { call, admin, create, list } = await setup();
    const { token, secret } = await create(admin.token);
    for (const [method, path, body] of [
      ["GET", "/api/tokens", undefined],
      ["POST", "/api/tokens", { name: "minted" }],
      ["DELETE", `/api/tokens/${token.id}`, undefined],
    ] as const) {
      const res = await call(method, path, { token: secret, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, code: "FORBIDDEN", message: "API tokens cannot manage API tokens: sign in to Vigil to do this" });
    }
    expect((await list(admin.token)).map((t) => t.name)).toEqual(["ci"]);
  });

  test("signed out: 401", async () => {
    const { call } = await setup();
    expect((await call("GET", "/api/tokens")).status).toBe(401);
    expect((await call("POST", "/api/tokens", { body: { name: "x" } })).status).toBe(401);
    expect((await call("DELETE", "/api/tokens/1")).status).toBe(401);
  });

  test.each([
    [{}, "Name is required (1-64 characters)"],
    [{ name: "" }, "Name is required (1-64 characters)"],
    [{ name: "   " }, "Name is required (1-64 characters)"],
    [{ name: "x".repeat(65) }, "Name is required (1-64 characters)"],
    [{ name: 42 }, "Name is required (1-64 characters) (got the number 42)"],
    [{ name: "two\nlines" }, "Name must not contain control characters (line breaks, tabs…)"],
    [{ name: "ci", expiresInDays: 0 }, "expiresInDays must be a whole number of days from 1 to 3650, or null for a token that never expires"],
    [{ name: "ci", expiresInDays: 3651 }, "expiresInDays must be a whole number of days from 1 to 3650, or null for a token that never expires"],
    [{ name: "ci", expiresInDays: 1.5 }, "expiresInDays must be a whole number of days from 1 to 3650, or null for a token that never expires (got the number 1.5)"],
    [{ name: "ci", expiresInDays: "thirty" }, "expiresInDays must be a whole number of days from 1 to 3650, or null for a token that never expires (got the text \"thirty\")"],
    [{ name: "ci", expiresInDays: -1 }, "expiresInDays must be a whole number of days from 1 to 3650, or null for a token that never expires"],
  ])("bad input is a 400 saying what is wrong, and nothing is created: %j", async (body, message) => {
    const { call, admin, list } = await setup();
    const res = await call("POST", "/api/tokens", { token: admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: "VALIDATION", message });
    expect(await list(admin.token)).toEqual([]);
  });

  test("names are unique per user, ignoring case (409); 64 characters are fine", async () => {
    const { call, admin, create, list } = await setup();
    await create(admin.token, { name: "CI" });
    const again = await call("POST", "/api/tokens", { token: admin.token, body: { name: " ci " } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, code: "TOKEN_NAME_EXISTS", message: "You already have a token with this name" });
    await create(admin.token, { name: "é".repeat(64) });
    expect(await list(admin.token)).toHaveLength(2);
  });

  test(`at most ${TOKENS_PER_USER_MAX} tokens per user (409); revoking one makes room`, async () => {
    const { call, admin, user, create, list } = await setup();
    for (let i = 0; i < TOKENS_PER_USER_MAX; i++) await create(admin.token, { name: `t${i}` });
    const over = await call("POST", "/api/tokens", { token: admin.token, body: { name: "one more" } });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ success: false, code: "TOKEN_LIMIT" });
    expect(over.body.message).toContain(`${TOKENS_PER_USER_MAX} API tokens`);
    await create(user.token, { name: "other user is not affected" });
    const first = (await list(admin.token))[0];
    await call("DELETE", `/api/tokens/${first.id}`, { token: admin.token });
    await create(admin.token, { name: "one more" });
  });
});

describe("authenticating with a token", () => {
  test("a full-access token acts as its user on the REST API, with that user's rights", async () => {
    const { call, admin, user, create } = await setup();
    const userToken = (await create(user.token, { name: "ci", scope: "full" })).secret;
    const adminToken = (await create(admin.token, { name: "ci", scope: "full" })).secret;

    const me = await call("GET", "/api/auth/me", { token: userToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ success: true, user: { username: "bob", role: "editor" } });

    const made = await call<{ monitor: { id: number } }>("POST", "/api/monitors", { token: userToken, body: { name: "API", url: "http://127.0.0.1:9/" } });
    expect(made.status).toBe(201);
    const monitors = await call<{ monitors: { name: string }[] }>("GET", "/api/monitors", { token: userToken });
    expect(monitors.status).toBe(200);
    expect(monitors.body.monitors.map((m) => m.name)).toEqual(["API"]);

    // Admin routes: a user's token is refused like the user's session; an admin's token gets in.
    const denied = await call("GET", "/api/users", { token: userToken });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ success: false, code: "FORBIDDEN", message: "Only an admin can do this" });
    const users = await call<{ users: { username: string }[] }>("GET", "/api/users", { token: adminToken });
    expect(users.status).toBe(200);
    expect(users.body.users.map((u) => u.username)).toEqual(["alice", "bob"]);
  });

  test("unknown tokens, other Vigil secrets and malformed ones are 401", async () => {
    const { call, create, admin } = await setup();
    const { secret } = await create(admin.token);
    const lastChar = secret.at(-1) === "A" ? "B" : "A";
    for (const token of [secret.slice(0, -1) + lastChar, "vgl_api_", "vgl_agent_" + secret.slice(8), "vgl_", "not-a-token"]) {
      const res = await call("GET", "/api/monitors", { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
    }
  });

  test("an expired token is refused (401) and flagged in the list", async () => {
    const { call, setToken, admin, create, list } = await setup();
    const { token, secret } = await create(admin.token, { name: "short", expiresInDays: 1 });
    expect((await call("GET", "/api/monitors", { token: secret })).status).toBe(200);
    await setToken(token.id, { expiresAt: Date.now() - 1 });
    const res = await call("GET", "/api/monitors", { token: secret });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, code: "UNAUTHORIZED", message: "This API token has expired" });
    expect((await list(admin.token))[0]).toMatchObject({ id: token.id, expired: true });
  });

  test("disabling the user revokes their tokens for good: gone from the database, still refused once re-enabled", async () => {
    const { call, owners, admin, user, create, list, login } = await setup();
    const { secret } = await create(user.token);
    const kept = await create(admin.token, { name: "admin's" });
    const disable = await call("PUT", `/api/users/${user.user.id}`, { token: admin.token, body: { username: "bob", status: "disabled" } });
    expect(disable.status).toBe(200);
    const res = await call("GET", "/api/monitors", { token: secret });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
    expect(await owners()).toEqual([{ user_id: admin.user.id }]);
    // Re-enabled: the old token stays dead; bob signs in again and makes a new one.
    expect((await call("PUT", `/api/users/${user.user.id}`, { token: admin.token, body: { username: "bob", status: "active" } })).status).toBe(200);
    expect((await call("GET", "/api/monitors", { token: secret })).status).toBe(401);
    const again = await login("bob");
    expect(await list(again.token)).toEqual([]);
    expect((await call("GET", "/api/monitors", { token: (await create(again.token)).secret })).status).toBe(200);
    expect((await call("GET", "/api/monitors", { token: kept.secret })).status).toBe(200);
  });

  test("deleting the user deletes their tokens (rows gone) and they stop working", async () => {
    const { call, owners, admin, user, create } = await setup();
    const a = await create(user.token, { name: "a" });
    await create(user.token, { name: "b" });
    const kept = await create(admin.token, { name: "admin's" });
    expect((await call("DELETE", `/api/users/${user.user.id}`, { token: admin.token })).status).toBe(200);
    expect((await call("GET", "/api/monitors", { token: a.secret })).status).toBe(401);
    expect(await owners()).toEqual([{ user_id: admin.user.id }]);
    expect((await call("GET", "/api/monitors", { token: kept.secret })).status).toBe(200);
  });

  test("a password change signs sessions out but leaves API tokens working (revoking them is explicit)", async () => {
    const { call, user, create } = await setup();
    const { secret } = await create(user.token);
    const changed = await call("POST", `/api/users/${user.user.id}/change-password`, {
      token: user.token,
      body: { currentPassword: PASSWORD, newPassword: "a brand new password" },
    });
    expect(changed.status).toBe(200);
    expect((await call("GET", "/api/monitors", { token: user.token })).status).toBe(401);
    expect((await call("GET", "/api/monitors", { token: secret })).status).toBe(200);
  });

  test("last used is noted on use, at most once a minute", async () => {
    const { call, setToken, admin, create, list } = await setup();
    const { token, secret } = await create(admin.token);
    const before = Date.now();
    await call("GET", "/api/monitors", { token: secret });
    const first = (await list(admin.token))[0].lastUsedAt!;
    expect(first).toBeGreaterThanOrEqual(before);

    // Used again 30 s after the noted use: not written again.
    const recent = Date.now() - 30_000;
    await setToken(token.id, { lastUsedAt: recent });
    await call("GET", "/api/monitors", { token: secret });
    expect((await list(admin.token))[0].lastUsedAt).toBe(recent);

    // A minute or more later: written.
    const old = Date.now() - 61_000;
    await setToken(token.id, { lastUsedAt: old });
    await call("GET", "/api/monitors", { token: secret });
    expect((await list(admin.token))[0].lastUsedAt).toBeGreaterThan(old + 60_000);
  });
});

describe("scopes", () => {
  test("chosen at creation (read-only when left out), listed with the token; anything else is a 400", async () => {
    const { call, admin, create, list } = await setup();
    expect((await create(admin.token, { name: "default" })).token.scope).toBe("read");
    for (const scope of ["read", "write", "full"] as const) expect((await create(admin.token, { name: scope, scope })).token.scope).toBe(scope);
    expect((await list(admin.token)).map((t) => [t.name, t.scope])).toEqual([["default", "read"], ["read", "read"], ["write", "write"], ["full", "full"]]);
    for (const scope of ["admin", "", "READ", 1, null]) {
      const res = await call("POST", "/api/tokens", { token: admin.token, body: { name: `bad ${String(scope)}`, scope } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: "VALIDATION", message: expect.stringContaining("scope must be read, write, full") });
    }
  });

  test("read: GET calls only (Prometheus included); any change is 403 TOKEN_SCOPE and nothing changes", async () => {
    const { call, admin, create } = await setup();
    const { secret } = await create(admin.token, { name: "prometheus", scope: "read" });
    expect((await call("GET", "/api/monitors", { token: secret })).status).toBe(200);
    expect((await call("GET", "/api/dashboard", { token: secret })).status).toBe(200);
    expect((await call("GET", "/api/monitors/stats", { token: secret })).status).toBe(200); // an admin's read
    const metrics = await call("GET", "/metrics", { token: secret });
    expect(metrics.status).toBe(200);
    const refused = await call("POST", "/api/monitors", { token: secret, body: { name: "API", url: "http://127.0.0.1:9/" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, code: "TOKEN_SCOPE", message: "This API token is read-only: it can only read (GET)" });
    expect((await call("PUT", "/api/status/config", { token: secret, body: { title: "Hacked" } })).status).toBe(403);
    expect((await call<{ monitors: unknown[] }>("GET", "/api/monitors", { token: admin.token })).body.monitors).toEqual([]);
    // Accounts need full, even to read: the user list holds everyone's e-mail.
    const users = await call("GET", "/api/users", { token: secret });
    expect(users.status).toBe(403);
    expect(users.body).toMatchObject({ code: "TOKEN_SCOPE", message: "This API token cannot manage accounts: that takes a token with full access" });
  });

  test("write: everything but accounts — an admin's write token cannot create admins, reset passwords or invite", async () => {
    const { call, admin, user, create } = await setup();
    const { secret } = await create(admin.token, { name: "deploy", scope: "write" });
    const made = await call<{ monitor: { id: number } }>("POST", "/api/monitors", { token: secret, body: { name: "API", url: "http://127.0.0.1:9/" } });
    expect(made.status).toBe(201);
    expect((await call("PUT", `/api/monitors/${made.body.monitor.id}`, { token: secret, body: { active: false } })).status).toBe(200);
    expect((await call("DELETE", `/api/monitors/${made.body.monitor.id}`, { token: secret })).status).toBe(200);
    const attempts: [string, string, unknown?][] = [
      ["GET", "/api/users"],
      ["POST", "/api/users", { username: "mallory", password: "a long password", role: "admin" }],
      ["POST", `/api/users/${user.user.id}/change-password`, { newPassword: "taken over now" }],
      ["PUT", `/api/users/${user.user.id}`, { username: "bob", role: "admin" }],
      ["DELETE", `/api/users/${user.user.id}`],
      ["POST", "/api/registration/invites", { role: "admin" }],
      ["PUT", "/api/registration", { open: true }],
      ["POST", `/api/users/${admin.user.id}/change-password`, { currentPassword: PASSWORD, newPassword: "taken over now" }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(method, path, { token: secret, body });
      expect(`${method} ${path} ${res.status} ${(res.body as { code?: string }).code}`).toBe(`${method} ${path} 403 TOKEN_SCOPE`);
    }
    // Nothing happened: bob is still a user with his password, no mallory, registration still closed.
    expect((await call<{ users: { username: string; role: string }[] }>("GET", "/api/users", { token: admin.token })).body.users.map((u) => `${u.username}:${u.role}`)).toEqual(["alice:admin", "bob:editor"]);
    expect((await call("POST", "/api/auth/login", { body: { username: "bob", password: PASSWORD } })).status).toBe(200);
    expect((await call<{ open: boolean; invites: unknown[] }>("GET", "/api/registration", { token: admin.token })).body).toMatchObject({ open: false, invites: [] });
  });

  test("full: an admin's token manages accounts; a user's full token edits only its own account", async () => {
    const { call, admin, user, create } = await setup();
    const adminFull = (await create(admin.token, { name: "ops", scope: "full" })).secret;
    expect((await call("POST", "/api/users", { token: adminFull, body: { username: "carol", password: "a long password" } })).status).toBe(201);
    const userFull = (await create(user.token, { name: "me", scope: "full" })).secret;
    expect((await call("PUT", `/api/users/${user.user.id}`, { token: userFull, body: { username: "robert" } })).status).toBe(200);
    expect((await call("GET", "/api/users", { token: userFull })).status).toBe(403);
    // No scope lets a token manage tokens.
    expect((await call("POST", "/api/tokens", { token: adminFull, body: { name: "more", scope: "full" } })).status).toBe(403);
  });
});
