// Issue 22: what the UI asks before showing /register — whether anyone may register (GET /api/config) and whether an
// invite link can still be used (POST /api/registration/invites/check). Both public; the check tells nothing else.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { PASSWORD, testApp } from "../test-support";

const CHECK = "/api/registration/invites/check";
/** A well-formed invite token that no invite has. */
const UNKNOWN = `vgl_inv_${"A".repeat(43)}`;

async function instance() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const user = await t.signUp("bob");
  const invite = async (body: { role?: "admin" | "user"; hours?: number } = {}) =>
    (await t.call<{ token: string; invite: { id: number; expiresAt: number } }>("POST", "/api/registration/invites", { token: admin.token, body })).body;
  const check = (token: unknown, as?: string) => t.call("POST", CHECK, { body: { token }, token: as });
  return { ...t, admin: admin.token, user: user.token, invite, check };
}

describe("registration state (GET /api/config)", () => {
  test("first run: open to the first admin; after it closed; an admin's switch opens it; an invite does not", async () => {
    const t = await testApp();
    const state = async () => {
      const { success, firstRun, registrationOpen } = (await t.call("GET", "/api/config")).body;
      return { success, firstRun, registrationOpen };
    };
    expect(await state()).toEqual({ success: true, firstRun: true, registrationOpen: true });
    const admin = await t.signUp("alice");
    expect(await state()).toEqual({ success: true, firstRun: false, registrationOpen: false });
    await t.call("POST", "/api/registration/invites", { token: admin.token, body: {} });
    expect(await state()).toEqual({ success: true, firstRun: false, registrationOpen: false });
    await t.call("PUT", "/api/registration", { token: admin.token, body: { open: true } });
    expect(await state()).toEqual({ success: true, firstRun: false, registrationOpen: true });
    // The public reply says no more than that: no invites, no account names or counts.
    expect(Object.keys((await t.call("GET", "/api/config")).body).sort()).toEqual(["firstRun", "links", "passwordLogin", "registrationOpen", "sso", "statusPage", "success", "version"]);
  });
});

describe("invite check", () => {
  test("a valid invite: its role and expiry, nothing else; anyone may ask, and asking does not spend it", async () => {
    const t = await instance();
    const made = await t.invite({ role: "admin", hours: 24 });
    for (const as of [undefined, t.user]) {
      const res = await t.check(made.token, as);
      expect(res.status).toBe(200);
      // Exactly these keys: no id, creator, creation time, token or hash, and nothing about other invites.
      expect(res.body).toEqual({ success: true, state: "valid", role: "admin", expiresAt: made.invite.expiresAt });
    }
    const registered = await t.call("POST", "/api/auth/register", { body: { username: "carol", password: PASSWORD, invite: made.token } });
    expect(registered.status).toBe(201);
  });

  test("a used invite says used; an expired one says expired; neither gives its role or expiry", async () => {
    const t = await instance();
    const used = await t.invite({ role: "admin" });
    await t.call("POST", "/api/auth/register", { body: { username: "carol", password: PASSWORD, invite: used.token } });
    expect((await t.check(used.token)).body).toEqual({ success: true, state: "used" });

    const expiring = await t.invite({ hours: 1 });
    await t.db.orm.update(t.db.t.invites).set({ expiresAt: Date.now() - 1 }).where(eq(t.db.t.invites.id, expiring.invite.id));
    const expired = await t.check(expiring.token);
    expect([expired.status, expired.body]).toEqual([200, { success: true, state: "expired" }]);
  });

  test("a revoked invite is answered exactly as a token no invite ever had", async () => {
    const t = await instance();
    const revoked = await t.invite();
    expect((await t.call("DELETE", `/api/registration/invites/${revoked.invite.id}`, { token: t.admin })).status).toBe(200);
    const afterRevoke = await t.check(revoked.token);
    const unknown = await t.check(UNKNOWN);
    expect([afterRevoke.status, afterRevoke.body]).toEqual([200, { success: true, state: "invalid" }]);
    expect([unknown.status, unknown.body]).toEqual([afterRevoke.status, afterRevoke.body]);
  });

  test("a malformed token or body is a 400 VALIDATION, not a 500", async () => {
    const t = await instance();
    const valid = await t.invite();
    for (const token of [undefined, "", 42, null, "vgl_inv_short", `vgl_api_${"A".repeat(43)}`, `${valid.token}x`, ` ${valid.token}`, "vgl_inv_" + "é".repeat(43)]) {
      const res = await t.check(token);
      expect([res.status, res.body.success, res.body.code], String(token)).toEqual([400, false, "VALIDATION"]);
      expect(res.body.message).toEqual(expect.any(String));
    }
    const raw = await t.call("POST", CHECK, { raw: "{not json" });
    expect([raw.status, raw.body.success]).toEqual([400, false]);
    // A query string is not where the token goes (it would be logged by proxies): still a 400, nothing checked.
    expect((await t.call("POST", `${CHECK}?token=${valid.token}`, { body: {} })).status).toBe(400);
  });

  test("documented in /api/docs as a public call with its body", async () => {
    const t = await testApp();
    const doc = (await t.call<{ paths: Record<string, Record<string, Record<string, any>>> }>("GET", "/api/docs/json")).body;
    const op = doc.paths[CHECK]!.post!;
    expect(op.summary).toContain("invite");
    expect(op.security).toBeUndefined();
    expect(op.requestBody.content["application/json"].schema.required).toEqual(["token"]);
  });
});
