// Issue 12: registration is closed after the first account, unless an admin opens it or sends an invite link.
import { afterEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { TEST_DATABASE_URL } from "../db/test-db";
import { reopenableDb } from "../monitors/test-db";
import { PASSWORD, testApp } from "../test-support";
import { createUserStore } from "../users/store";
import { createRegistration } from "./service";

const newcomer = (username: string, extra: Record<string, unknown> = {}) => ({ username, password: PASSWORD, confirmPassword: PASSWORD, ...extra });

async function instance() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const user = await t.signUp("bob");
  return { ...t, admin: admin.token, user: user.token };
}

describe("closed registration", () => {
  test("is the default after the first account: 403 REGISTRATION_CLOSED, nothing created", async () => {
    const t = await instance();
    const res = await t.call("POST", "/api/auth/register", { body: newcomer("mallory") });
    expect([res.status, res.body.code]).toEqual([403, "REGISTRATION_CLOSED"]);
    const users = await t.call<{ users: { username: string }[] }>("GET", "/api/users", { token: t.admin });
    expect(users.body.users.map((u) => u.username)).toEqual(["alice", "bob"]);
    expect((await t.call("GET", "/api/config")).body.registrationOpen).toBe(false);
  });

  test("two first sign-ups racing on a fresh instance: one becomes admin, the other is refused", async () => {
    const t = await testApp();
    const results = await Promise.all(["alice", "bob"].map((name) => t.call("POST", "/api/auth/register", { body: newcomer(name) })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
    expect(results.find((r) => r.status === 403)!.body.code).toBe("REGISTRATION_CLOSED");
  });

  test("an admin opens it: anyone registers as a user and is signed in; closing it again refuses", async () => {
    const t = await instance();
    expect((await t.call("GET", "/api/registration", { token: t.admin })).body).toEqual({ success: true, open: false, role: "viewer", invites: [] });
    const opened = await t.call("PUT", "/api/registration", { token: t.admin, body: { open: true } });
    expect(opened.body).toMatchObject({ success: true, open: true });
    expect((await t.call("GET", "/api/config")).body.registrationOpen).toBe(true);
    const carol = await t.call<{ token: string; user: { role: string } }>("POST", "/api/auth/register", { body: newcomer("carol") });
    expect(carol.status).toBe(201);
    expect(carol.body.user.role).toBe("viewer"); // open registration gives the least role unless an admin chose another
    expect((await t.call("GET", "/api/auth/me", { token: carol.body.token })).status).toBe(200);
    await t.call("PUT", "/api/registration", { token: t.admin, body: { open: false } });
    expect((await t.call("POST", "/api/auth/register", { body: newcomer("dave") })).status).toBe(403);
  });

  test("only an admin reads or changes the setting and the invites", async () => {
    const t = await instance();
    for (const [method, path, body] of [
      ["GET", "/api/registration", undefined],
      ["PUT", "/api/registration", { open: true }],
      ["POST", "/api/registration/invites", {}],
      ["DELETE", "/api/registration/invites/1", undefined],
    ] as const) {
      expect((await t.call(method, path, { body })).status).toBe(401);
      expect((await t.call(method, path, { token: t.user, body })).status).toBe(403);
    }
    expect((await t.call("GET", "/api/config")).body.registrationOpen).toBe(false);
  });

  test("bad input is a 400", async () => {
    const t = await instance();
    for (const body of [{}, { open: "yes" }, { open: 1 }, { role: "root" }]) {
      expect((await t.call("PUT", "/api/registration", { token: t.admin, body })).status).toBe(400);
    }
    for (const body of [{ role: "root" }, { hours: 0 }, { hours: 721 }, { hours: 1.5 }]) {
      const res = await t.call("POST", "/api/registration/invites", { token: t.admin, body });
      expect([res.status, res.body.code]).toEqual([400, "VALIDATION"]);
    }
    expect((await t.call("DELETE", "/api/registration/invites/abc", { token: t.admin })).status).toBe(400);
    const none = await t.call("DELETE", "/api/registration/invites/99", { token: t.admin });
    expect([none.status, none.body.code]).toEqual([404, "INVITE_NOT_FOUND"]);
  });
});

describe("invite links", () => {
  test("an invite admits one account with its role, once; it is listed until used and never shows its token again", async () => {
    const t = await instance();
    const made = await t.call<{ token: string; invite: { id: number; role: string; expiresAt: number } }>("POST", "/api/registration/invites", {
      token: t.admin,
      body: { role: "admin", hours: 24 },
    });
    expect(made.status).toBe(201);
    expect(made.body.token).toStartWith("vgl_inv_");
    expect(made.body.invite.expiresAt - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const listed = await t.call<{ invites: unknown[] }>("GET", "/api/registration", { token: t.admin });
    expect(listed.body.invites).toEqual([made.body.invite]);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token);

    const carol = await t.call<{ token: string; user: { role: string } }>("POST", "/api/auth/register", { body: newcomer("carol", { invite: made.body.token }) });
    expect(carol.status).toBe(201);
    expect(carol.body.user.role).toBe("admin");
    expect((await t.call("GET", "/api/auth/me", { token: carol.body.token })).status).toBe(200);

    const again = await t.call("POST", "/api/auth/register", { body: newcomer("dave", { invite: made.body.token }) });
    expect([again.status, again.body.code]).toEqual([403, "INVITE_INVALID"]);
    expect((await t.call<{ invites: unknown[] }>("GET", "/api/registration", { token: t.admin })).body.invites).toEqual([]);
  });

  test("an unknown, revoked or expired invite is refused; a taken username does not spend the invite", async () => {
    const t = await instance();
    const unknown = await t.call("POST", "/api/auth/register", { body: newcomer("carol", { invite: "vgl_inv_nope" }) });
    expect([unknown.status, unknown.body.code]).toEqual([403, "INVITE_INVALID"]);

    const revoked = await t.call<{ token: string; invite: { id: number } }>("POST", "/api/registration/invites", { token: t.admin, body: {} });
    expect((await t.call("DELETE", `/api/registration/invites/${revoked.body.invite.id}`, { token: t.admin })).status).toBe(200);
    expect((await t.call("POST", "/api/auth/register", { body: newcomer("carol", { invite: revoked.body.token }) })).status).toBe(403);

    const expiring = await t.call<{ token: string; invite: { id: number } }>("POST", "/api/registration/invites", { token: t.admin, body: { hours: 1 } });
    await t.db.orm.update(t.db.t.invites).set({ expiresAt: Date.now() - 1 }).where(eq(t.db.t.invites.id, expiring.body.invite.id));
    const expired = await t.call("POST", "/api/auth/register", { body: newcomer("carol", { invite: expiring.body.token }) });
    expect([expired.status, expired.body.code]).toEqual([403, "INVITE_INVALID"]);

    const fresh = await t.call<{ token: string }>("POST", "/api/registration/invites", { token: t.admin, body: {} });
    const taken = await t.call("POST", "/api/auth/register", { body: newcomer("BOB", { invite: fresh.body.token }) });
    expect([taken.status, taken.body.code]).toEqual([409, "USERNAME_EXISTS"]);
    const retry = await t.call<{ user: { role: string } }>("POST", "/api/auth/register", { body: newcomer("carol", { invite: fresh.body.token }) });
    expect(retry.status).toBe(201);
    expect(retry.body.user.role).toBe("viewer"); // an invite sent without a role gives the least one, as the form starts on
  });

  test("two sign-ups racing with one invite: exactly one gets in", async () => {
    const t = await instance();
    const made = await t.call<{ token: string }>("POST", "/api/registration/invites", { token: t.admin, body: {} });
    const results = await Promise.all(
      ["carol", "dave", "erin"].map((name) => t.call("POST", "/api/auth/register", { body: newcomer(name, { invite: made.body.token }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403]);
  });
});

// Several nodes share PostgreSQL only (SQLite has one server per data dir, which vigil.pid enforces).
describe.skipIf(!TEST_DATABASE_URL)("on several nodes sharing one PostgreSQL database", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** Nodes: each its own connection (pool) and services on one database. */
  async function nodes(n: number) {
    const { open, cleanup } = await reopenableDb();
    cleanups.push(cleanup);
    return Promise.all(
      Array.from({ length: n }, async () => {
        const db = await open();
        cleanups.push(() => db.close());
        const users = createUserStore(db);
        return { db, users, registration: createRegistration({ db, users }) };
      }),
    );
  }
  const outcome = (p: Promise<{ role: string }>) => p.then((u) => u.role, (e: { code?: string }) => e.code ?? String(e));
  const newUser = (username: string) => ({ username, email: null, passwordHash: "h" });

  test("first sign-ups racing on every node: exactly one account, and it is the admin", async () => {
    const cluster = await nodes(3);
    const results = await Promise.all(cluster.flatMap((node, i) => [0, 1, 2].map((j) => outcome(node.registration.register(newUser(`u${i}${j}`), undefined)))));
    expect(results.sort()).toEqual(["REGISTRATION_CLOSED", "REGISTRATION_CLOSED", "REGISTRATION_CLOSED", "REGISTRATION_CLOSED", "REGISTRATION_CLOSED", "REGISTRATION_CLOSED", "REGISTRATION_CLOSED", "REGISTRATION_CLOSED", "admin"]);
    expect((await cluster[0]!.users.list()).map((u) => u.role)).toEqual(["admin"]);
  });

  test("one invite used on every node at once: one account gets in, the invite is spent once", async () => {
    const cluster = await nodes(3);
    const admin = await cluster[0]!.users.create({ ...newUser("alice"), role: "admin" }, { firstBecomesAdmin: true });
    const { token, invite } = await cluster[0]!.registration.createInvite(admin.id, "editor");
    const results = await Promise.all(cluster.flatMap((node, i) => [0, 1].map((j) => outcome(node.registration.register(newUser(`u${i}${j}`), token)))));
    expect(results.sort()).toEqual(["INVITE_INVALID", "INVITE_INVALID", "INVITE_INVALID", "INVITE_INVALID", "INVITE_INVALID", "editor"]);
    const users = await cluster[1]!.users.list();
    expect(users.length).toBe(2);
    const { invites } = cluster[2]!.db.t;
    const [row] = await cluster[2]!.db.orm.select().from(invites).where(eq(invites.id, invite.id));
    expect(row!.usedBy).toBe(users[1]!.id);
    expect(await cluster[2]!.registration.checkInvite(token)).toEqual({ state: "used" });
  });
});
