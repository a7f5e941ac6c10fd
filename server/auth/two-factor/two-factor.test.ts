import { describe, expect, test } from "bun:test";
import { Secret, TOTP } from "otpauth";
import type { AppDeps } from "../../app";
import { openDatabase } from "../../db/open";
import { testDb, testEngine, testSchema } from "../../db/test-db";
import { PASSWORD, testApp } from "../../test-support";
import { createTwoFactor } from "./service";

// Two-factor sign-in through the API with a fixed clock: enrolment (secret, QR, first code, recovery codes), the
// two-step sign-in, recovery codes, replayed and wrong codes, the limit on guesses, codes asked for by password
// changes and token creation, turning it off, an admin's reset and the "everyone" policy.

const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);

async function setup(overrides: Partial<AppDeps> = {}) {
  let now = T0;
  const t = await testApp({ clock: () => now, ...overrides });
  const admin = await t.signUp("alice");
  const bob = await t.signUp("bob");
  const code = (secret: string, at = now) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at });
  /** Enrols a user: the secret and the recovery codes. */
  const enrol = async (who: { token: string }) => {
    const setup = await t.call<any>("POST", "/api/auth/2fa/setup", { token: who.token, body: { currentPassword: PASSWORD } });
    expect(setup.status).toBe(200);
    const enabled = await t.call<any>("POST", "/api/auth/2fa/enable", { token: who.token, body: { code: code(setup.body.secret) } });
    expect(enabled.status).toBe(200);
    return { secret: setup.body.secret as string, recovery: enabled.body.recoveryCodes as string[] };
  };
  const login = (username: string, headers?: Record<string, string>) => t.call<any>("POST", "/api/auth/login", { headers, body: { username, password: PASSWORD } });
  return { ...t, admin, bob, code, enrol, login, tick: (ms: number) => (now += ms) };
}

describe("enrolment", () => {
  test("a secret with its otpauth URI and QR code, confirmed by a first code; ten recovery codes shown once", async () => {
    const { call, bob, code } = await setup();
    expect((await call<any>("GET", "/api/auth/2fa", { token: bob.token })).body).toMatchObject({ enabled: false, recoveryCodesLeft: 0, required: false });
    const s = await call<any>("POST", "/api/auth/2fa/setup", { token: bob.token, body: { currentPassword: PASSWORD } });
    expect(s.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(s.body.uri).toBe(`otpauth://totp/Vigil:bob?issuer=Vigil&secret=${s.body.secret}&algorithm=SHA1&digits=6&period=30`);
    expect(s.body.qrSvg).toStartWith("<svg");
    // A wrong first code leaves it off.
    const wrong = await call("POST", "/api/auth/2fa/enable", { token: bob.token, body: { code: "123456" } });
    expect([wrong.status, wrong.body.code]).toEqual([400, "TWO_FACTOR_WRONG_CODE"]);
    expect((await call<any>("GET", "/api/auth/me", { token: bob.token })).body.user.twoFactor).toBe(false);
    const on = await call<any>("POST", "/api/auth/2fa/enable", { token: bob.token, body: { code: code(s.body.secret) } });
    expect(on.status).toBe(200);
    expect(on.body.recoveryCodes).toHaveLength(10);
    expect(new Set(on.body.recoveryCodes).size).toBe(10);
    expect(on.body.recoveryCodes[0]).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect((await call<any>("GET", "/api/auth/2fa", { token: bob.token })).body).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect((await call<any>("GET", "/api/auth/me", { token: bob.token })).body.user.twoFactor).toBe(true);
    // Set up again while on: refused (turn it off first).
    expect((await call("POST", "/api/auth/2fa/setup", { token: bob.token, body: { currentPassword: PASSWORD } })).body.code).toBe("TWO_FACTOR_ALREADY_ON");
    expect((await call("POST", "/api/auth/2fa/enable", { token: bob.token, body: { code: code(s.body.secret) } })).status).toBe(409);
  });
});

describe("setting up asks for the current password", () => {
  test("missing or wrong: no secret; wrong ones count with sign-in's wrong passwords; held back by the policy, the right one still enrols", async () => {
    const { call, admin, bob, code, login } = await setup();
    expect((await call<any>("GET", "/api/auth/2fa", { token: bob.token })).body.passwordRequired).toBe(true);
    for (const body of [undefined, {}, { currentPassword: "" }]) {
      const missing = await call<any>("POST", "/api/auth/2fa/setup", { token: bob.token, body });
      expect([missing.status, missing.body.code, missing.body.secret]).toEqual([400, "CURRENT_PASSWORD_REQUIRED", undefined]);
    }
    const wrong = await call<any>("POST", "/api/auth/2fa/setup", { token: bob.token, body: { currentPassword: "not my password" } });
    expect([wrong.status, wrong.body.code, wrong.body.secret]).toEqual([400, "WRONG_CURRENT_PASSWORD", undefined]);
    // With no secret set up, /enable has nothing to confirm.
    expect((await call<any>("POST", "/api/auth/2fa/enable", { token: bob.token, body: { code: "123456" } })).body.code).toBe("TWO_FACTOR_NOT_SET_UP");
    // Five wrong passwords in all (here and at sign-in) lock both for the account.
    for (let i = 0; i < 3; i++) await call("POST", "/api/auth/2fa/setup", { token: bob.token, body: { currentPassword: "still not it" } });
    expect((await call("POST", "/api/auth/login", { body: { username: "bob", password: "nor this" } })).status).toBe(401);
    const locked = await call<any>("POST", "/api/auth/2fa/setup", { token: bob.token, body: { currentPassword: PASSWORD } });
    expect([locked.status, locked.body.code]).toEqual([429, "TOO_MANY_ATTEMPTS"]);
    expect((await login("bob")).status).toBe(429);
    expect((await call<any>("GET", "/api/auth/me", { token: bob.token })).body.user.twoFactor).toBe(false);

    // A session held back by "required of everyone" enrols with its password, and is refused without it.
    expect((await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: true } })).status).toBe(200);
    expect((await call<any>("POST", "/api/auth/2fa/setup", { token: admin.token })).body.code).toBe("CURRENT_PASSWORD_REQUIRED");
    const s = await call<any>("POST", "/api/auth/2fa/setup", { token: admin.token, body: { currentPassword: PASSWORD } });
    expect(s.status).toBe(200);
    expect((await call("POST", "/api/auth/2fa/enable", { token: admin.token, body: { code: code(s.body.secret) } })).status).toBe(200);
  });
});

describe("signing in", () => {
  test("the password gives a challenge, not a session; a code completes it; the same code cannot be used twice", async () => {
    const { call, bob, code, enrol, login, tick } = await setup();
    const { secret } = await enrol(bob);
    tick(30_000); // the enrolment's code is spent: the next step's
    const first = await login("bob");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ twoFactor: true });
    expect(first.body.token).toBeUndefined();
    // The challenge is no session.
    expect((await call("GET", "/api/auth/me", { token: first.body.challenge })).status).toBe(401);
    const done = await call<any>("POST", "/api/auth/login/2fa", { body: { challenge: first.body.challenge, code: code(secret) } });
    expect(done.status).toBe(200);
    expect(done.body.user.username).toBe("bob");
    expect((await call("GET", "/api/auth/me", { token: done.body.token })).status).toBe(200);
    const replay = await call("POST", "/api/auth/login/2fa", { body: { challenge: (await login("bob")).body.challenge, code: code(secret) } });
    expect([replay.status, replay.body.code]).toEqual([401, "TWO_FACTOR_WRONG_CODE"]);
    // One step on, a new code works; a code from five minutes ago does not.
    tick(30_000);
    expect((await call("POST", "/api/auth/login/2fa", { body: { challenge: (await login("bob")).body.challenge, code: code(secret, T0 - 300_000) } })).status).toBe(401);
    expect((await call("POST", "/api/auth/login/2fa", { body: { challenge: (await login("bob")).body.challenge, code: code(secret) } })).status).toBe(200);
  });

  test("a recovery code signs in once; forged, expired and foreign challenges are refused", async () => {
    const { call, bob, enrol, login } = await setup();
    const { recovery } = await enrol(bob);
    const challenge = (await login("bob")).body.challenge;
    const ok = await call<any>("POST", "/api/auth/login/2fa", { body: { challenge, code: ` ${recovery[3]!.toUpperCase()} ` } });
    expect(ok.status).toBe(200);
    expect((await call<any>("GET", "/api/auth/2fa", { token: ok.body.token })).body.recoveryCodesLeft).toBe(9);
    expect((await call("POST", "/api/auth/login/2fa", { body: { challenge, code: recovery[3] } })).status).toBe(401);
    for (const forged of ["nope", bob.token, `${challenge.slice(0, -4)}AAAA`]) {
      const r = await call("POST", "/api/auth/login/2fa", { body: { challenge: forged, code: recovery[4] } });
      expect([r.status, r.body.code]).toEqual([401, "TWO_FACTOR_CHALLENGE_INVALID"]);
    }
    expect((await call("POST", "/api/auth/login/2fa", { body: { code: "123456" } })).status).toBe(400);
  });

  test("wrong codes are limited: 5 per account in 15 minutes, then 429 even with the right code", async () => {
    const { call, bob, code, enrol, login, tick } = await setup();
    const { secret } = await enrol(bob);
    tick(30_000);
    const challenge = (await login("bob")).body.challenge;
    for (let i = 0; i < 5; i++) expect((await call("POST", "/api/auth/login/2fa", { body: { challenge, code: "000000" } })).status).toBe(401);
    const blocked = await call("POST", "/api/auth/login/2fa", { body: { challenge, code: code(secret) } });
    expect([blocked.status, blocked.body.code]).toEqual([429, "TOO_MANY_ATTEMPTS"]);
  });

  test("wrong codes count per account whatever the challenge and address: a fresh challenge per guess still locks", async () => {
    const { call, bob, code, enrol, login, tick } = await setup({ config: { tokenTtl: "7d", trustProxy: 1, links: { blog: "", video: "", tempMail: "" } } });
    const { secret } = await enrol(bob);
    tick(30_000);
    // The password is known: each guess gets a fresh challenge, from an address of its own.
    const guess = async (i: number, guessed: string) => {
      const headers = { "x-forwarded-for": `198.51.100.${i}` };
      const { challenge } = (await login("bob", headers)).body;
      return call<any>("POST", "/api/auth/login/2fa", { headers, body: { challenge, code: guessed } });
    };
    for (let i = 0; i < 5; i++) expect((await guess(i, "000000")).status).toBe(401);
    expect((await guess(5, "000000")).status).toBe(429);
    const blocked = await guess(6, code(secret));
    expect([blocked.status, blocked.body.code, blocked.body.token]).toEqual([429, "TOO_MANY_ATTEMPTS", undefined]);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The right password alone does not clear the count; the signed-in user's code checks share it.
    expect((await call("POST", "/api/auth/2fa/disable", { token: bob.token, body: { code: code(secret) } })).status).toBe(429);
  });

  test("a challenge signs in once: after a code or a recovery code, it is spent", async () => {
    const { call, bob, code, enrol, login, tick } = await setup();
    const { secret, recovery } = await enrol(bob);
    tick(30_000);
    const byCode = (await login("bob")).body.challenge;
    expect((await call("POST", "/api/auth/login/2fa", { body: { challenge: byCode, code: code(secret) } })).status).toBe(200);
    tick(30_000);
    const again = await call<any>("POST", "/api/auth/login/2fa", { body: { challenge: byCode, code: code(secret) } });
    expect([again.status, again.body.code, again.body.token]).toEqual([401, "TWO_FACTOR_CHALLENGE_INVALID", undefined]);

    const byRecovery = (await login("bob")).body.challenge;
    const first = await call<any>("POST", "/api/auth/login/2fa", { body: { challenge: byRecovery, code: recovery[0] } });
    expect(first.status).toBe(200);
    const second = await call<any>("POST", "/api/auth/login/2fa", { body: { challenge: byRecovery, code: recovery[1] } });
    expect([second.status, second.body.code, second.body.token]).toEqual([401, "TWO_FACTOR_CHALLENGE_INVALID", undefined]);
    // Refused before the code was looked at: the second recovery code is still there.
    expect((await call<any>("GET", "/api/auth/2fa", { token: first.body.token })).body.recoveryCodesLeft).toBe(9);
    // A wrong code leaves the challenge usable (a typo does not cost the password step).
    const typo = (await login("bob")).body.challenge;
    expect((await call("POST", "/api/auth/login/2fa", { body: { challenge: typo, code: "000000" } })).status).toBe(401);
    expect((await call("POST", "/api/auth/login/2fa", { body: { challenge: typo, code: recovery[1] } })).status).toBe(200);
  });
});

describe("with two-factor on", () => {
  test("a password change and a new API token need a code; turning it off needs one too", async () => {
    const { call, bob, code, enrol, tick } = await setup();
    const { secret, recovery } = await enrol(bob);
    const change = (extra: Record<string, unknown>) =>
      call<any>("POST", `/api/users/${bob.user.id}/change-password`, { token: bob.token, body: { currentPassword: PASSWORD, newPassword: "a new correct horse", ...extra } });
    expect((await change({})).body.code).toBe("TWO_FACTOR_CODE_REQUIRED");
    expect((await change({ code: "000000" })).body.code).toBe("TWO_FACTOR_WRONG_CODE");
    tick(30_000);
    const changed = await change({ code: code(secret) });
    expect(changed.status).toBe(200);
    const token = changed.body.token as string;

    expect((await call("POST", "/api/tokens", { token, body: { name: "ci" } })).body.code).toBe("TWO_FACTOR_CODE_REQUIRED");
    expect((await call("POST", "/api/tokens", { token, body: { name: "ci", code: recovery[0] } })).status).toBe(201);

    expect((await call("POST", "/api/auth/2fa/disable", { token, body: { code: "000000" } })).status).toBe(400);
    tick(30_000);
    expect((await call("POST", "/api/auth/2fa/disable", { token, body: { code: code(secret) } })).status).toBe(200);
    expect((await call<any>("GET", "/api/auth/me", { token })).body.user.twoFactor).toBe(false);
    expect((await call<any>("POST", "/api/auth/login", { body: { username: "bob", password: "a new correct horse" } })).body.token).toBeTruthy();
  });

  test("an admin resets a user's second factor (a lost phone); others may not", async () => {
    const { call, admin, bob, enrol, login } = await setup();
    await enrol(bob);
    expect((await call("POST", `/api/auth/2fa/reset/${admin.user.id}`, { token: bob.token })).status).toBe(403);
    expect((await call("POST", `/api/auth/2fa/reset/${bob.user.id}`, { token: admin.token })).status).toBe(200);
    expect((await login("bob")).body.token).toBeTruthy();
    expect((await call("POST", "/api/auth/2fa/reset/999", { token: admin.token })).status).toBe(404);
  });

  test("an admin requires it of everyone: until they set it up, others reach only their two-factor set-up", async () => {
    const { call, admin, bob, code, enrol } = await setup();
    await enrol(admin);
    expect((await call("PUT", "/api/auth/2fa/policy", { token: bob.token, body: { required: true } })).status).toBe(403);
    expect((await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: "yes" } })).status).toBe(400);
    expect((await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: true } })).status).toBe(200);
    expect((await call<any>("GET", "/api/auth/2fa", { token: bob.token })).body.required).toBe(true);
    const blocked = await call("GET", "/api/monitors", { token: bob.token });
    expect([blocked.status, blocked.body.code]).toEqual([403, "TWO_FACTOR_SETUP_REQUIRED"]);
    expect((await call("GET", "/api/auth/me", { token: bob.token })).status).toBe(200);
    const s = await call<any>("POST", "/api/auth/2fa/setup", { token: bob.token, body: { currentPassword: PASSWORD } });
    expect((await call("POST", "/api/auth/2fa/enable", { token: bob.token, body: { code: code(s.body.secret) } })).status).toBe(200);
    expect((await call("GET", "/api/monitors", { token: bob.token })).status).toBe(200);
  });

  test("a held-back session may enrol and nothing else: not the security settings, even an admin's", async () => {
    const { call, admin, bob, code, enrol, tick } = await setup();
    const { secret } = await enrol(bob);
    // The admin requires it of everyone without having it: their own session is held back from then on.
    expect((await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: true } })).status).toBe(200);
    const refused = [
      await call("PUT", "/api/auth/sso/settings", { token: admin.token, body: { name: "Corp" } }),
      await call("GET", "/api/auth/sso/settings", { token: admin.token }),
      await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: false } }),
      await call("POST", `/api/auth/2fa/reset/${bob.user.id}`, { token: admin.token }),
      await call("POST", "/api/auth/2fa/disable", { token: admin.token, body: { code: "000000" } }),
      await call("POST", `/api/users/${admin.user.id}/change-password`, { token: admin.token, body: { currentPassword: PASSWORD, newPassword: "a new correct horse" } }),
      await call("POST", "/api/tokens", { token: admin.token, body: { name: "ci" } }),
      await call("GET", "/api/users", { token: admin.token }),
    ];
    for (const r of refused) expect([r.status, r.body.code]).toEqual([403, "TWO_FACTOR_SETUP_REQUIRED"]);
    // Bob's second factor is untouched, and the policy is still on.
    tick(30_000);
    expect((await call<any>("POST", "/api/auth/login/2fa", { body: { challenge: (await call<any>("POST", "/api/auth/login", { body: { username: "bob", password: PASSWORD } })).body.challenge, code: code(secret) } })).status).toBe(200);

    // What the profile page needs to enrol still answers; signing out is the app forgetting its token.
    expect((await call<any>("GET", "/api/auth/me", { token: admin.token })).body.user.username).toBe("alice");
    expect((await call<any>("GET", "/api/auth/2fa/", { token: admin.token })).body).toMatchObject({ enabled: false, required: true });
    const s = await call<any>("POST", "/api/auth/2fa/setup", { token: admin.token, body: { currentPassword: PASSWORD } });
    expect((await call("POST", "/api/auth/2fa/enable", { token: admin.token, body: { code: code(s.body.secret) } })).status).toBe(200);
    // Enrolled: the same session reaches the settings again.
    expect((await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: false } })).status).toBe(200);
    expect((await call("GET", "/api/auth/sso/settings", { token: admin.token })).status).toBe(200);
  });
});

describe("status pages", () => {
  test("a held-back session is not signed in for private pages; a password page's unlock token still opens it", async () => {
    const { call, admin, bob, enrol } = await setup();
    await enrol(admin);
    const page = (slug: string, extra: Record<string, unknown>) =>
      call("POST", "/api/status-pages", { token: admin.token, body: { slug, title: slug, description: "", logo: null, customDomain: null, announcement: null, groups: [], ...extra } });
    expect((await page("inside", { visibility: "private" })).status).toBe(201);
    expect((await page("partners", { visibility: "password", password: "open sesame" })).status).toBe(201);
    expect((await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: true } })).status).toBe(200);
    for (const path of ["/api/status/pages/inside", "/api/status/pages/inside/feed.rss", "/api/status/pages/inside/summary.json", "/api/status/pages/partners"]) {
      const held = await call("GET", path, { token: bob.token });
      expect([path, held.status, held.body.code]).toEqual([path, 403, "TWO_FACTOR_SETUP_REQUIRED"]);
      expect((await call("GET", path, { token: admin.token })).status).toBe(200);
    }
    const unlock = await call<any>("POST", "/api/status/pages/partners/unlock", { body: { password: "open sesame" } });
    expect((await call("GET", "/api/status/pages/partners", { token: bob.token, headers: { "x-status-token": unlock.body.token } })).status).toBe(200);
  });
});

describe("spent challenges", () => {
  test("are forgotten once past their time", async () => {
    const db = await testDb();
    try {
      const twoFactor = createTwoFactor(db);
      expect(await twoFactor.spendChallenge("old", Date.now() - 1)).toBe(true);
      expect(await twoFactor.spendChallenge("new", Date.now() + 60_000)).toBe(true);
      expect([await twoFactor.challengeSpent("old"), await twoFactor.challengeSpent("new")]).toEqual([false, true]);
      expect(await twoFactor.spendChallenge("new", Date.now() + 60_000)).toBe(false);
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(testEngine !== "postgres")("two nodes sharing PostgreSQL", () => {
  test("wrong codes sent to either node count together, and a challenge spent on one is refused on the other", async () => {
    const schema = await testSchema();
    const [dbA, dbB] = [await openDatabase(schema.url), await openDatabase(schema.url)];
    try {
      const a = await setup({ db: dbA });
      const b = await testApp({ db: dbB, clock: () => T0 + 30_000 });
      const { secret, recovery } = await a.enrol(a.bob);
      a.tick(30_000);
      const challenge = (await a.login("bob")).body.challenge;
      expect((await a.call("POST", "/api/auth/login/2fa", { body: { challenge, code: recovery[0] } })).status).toBe(200);
      const reused = await b.call<any>("POST", "/api/auth/login/2fa", { body: { challenge, code: recovery[1] } });
      expect([reused.status, reused.body.code]).toEqual([401, "TWO_FACTOR_CHALLENGE_INVALID"]);
      for (let i = 0; i < 5; i++) {
        const node = i % 2 ? b : a;
        const fresh = (await node.call<any>("POST", "/api/auth/login", { body: { username: "bob", password: PASSWORD } })).body.challenge;
        expect((await node.call("POST", "/api/auth/login/2fa", { body: { challenge: fresh, code: "000000" } })).status).toBe(401);
      }
      for (const node of [a, b]) {
        const fresh = (await node.call<any>("POST", "/api/auth/login", { body: { username: "bob", password: PASSWORD } })).body.challenge;
        expect((await node.call("POST", "/api/auth/login/2fa", { body: { challenge: fresh, code: a.code(secret) } })).status).toBe(429);
      }
    } finally {
      await dbA.close();
      await dbB.close();
      await schema.drop();
    }
  });
});
