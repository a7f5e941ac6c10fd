import { describe, expect, test } from "bun:test";
import { Secret, TOTP } from "otpauth";
import { PASSWORD, testApp } from "../../test-support";

// Two-factor sign-in through the API with a fixed clock: enrolment (secret, QR, first code, recovery codes), the
// two-step sign-in, recovery codes, replayed and wrong codes, the limit on guesses, codes asked for by password
// changes and token creation, turning it off, an admin's reset and the "everyone" policy.

const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);

async function setup() {
  let now = T0;
  const t = await testApp({ clock: () => now });
  const admin = await t.signUp("alice");
  const bob = await t.signUp("bob");
  const code = (secret: string, at = now) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at });
  /** Enrols a user: the secret and the recovery codes. */
  const enrol = async (who: { token: string }) => {
    const setup = await t.call<any>("POST", "/api/auth/2fa/setup", { token: who.token });
    expect(setup.status).toBe(200);
    const enabled = await t.call<any>("POST", "/api/auth/2fa/enable", { token: who.token, body: { code: code(setup.body.secret) } });
    expect(enabled.status).toBe(200);
    return { secret: setup.body.secret as string, recovery: enabled.body.recoveryCodes as string[] };
  };
  const login = (username: string) => t.call<any>("POST", "/api/auth/login", { body: { username, password: PASSWORD } });
  return { ...t, admin, bob, code, enrol, login, tick: (ms: number) => (now += ms) };
}

describe("enrolment", () => {
  test("a secret with its otpauth URI and QR code, confirmed by a first code; ten recovery codes shown once", async () => {
    const { call, bob, code } = await setup();
    expect((await call<any>("GET", "/api/auth/2fa", { token: bob.token })).body).toMatchObject({ enabled: false, recoveryCodesLeft: 0, required: false });
    const s = await call<any>("POST", "/api/auth/2fa/setup", { token: bob.token });
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
    expect((await call("POST", "/api/auth/2fa/setup", { token: bob.token })).body.code).toBe("TWO_FACTOR_ALREADY_ON");
    expect((await call("POST", "/api/auth/2fa/enable", { token: bob.token, body: { code: code(s.body.secret) } })).status).toBe(409);
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
    const { call, admin, bob, code } = await setup();
    expect((await call("PUT", "/api/auth/2fa/policy", { token: bob.token, body: { required: true } })).status).toBe(403);
    expect((await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: true } })).status).toBe(200);
    expect((await call<any>("GET", "/api/auth/2fa", { token: bob.token })).body.required).toBe(true);
    const blocked = await call("GET", "/api/monitors", { token: bob.token });
    expect([blocked.status, blocked.body.code]).toEqual([403, "TWO_FACTOR_SETUP_REQUIRED"]);
    expect((await call("GET", "/api/auth/me", { token: bob.token })).status).toBe(200);
    const s = await call<any>("POST", "/api/auth/2fa/setup", { token: bob.token });
    expect((await call("POST", "/api/auth/2fa/enable", { token: bob.token, body: { code: code(s.body.secret) } })).status).toBe(200);
    expect((await call("GET", "/api/monitors", { token: bob.token })).status).toBe(200);
    expect((await call("PUT", "/api/auth/2fa/policy", { token: admin.token, body: { required: "yes" } })).status).toBe(400);
  });
});
