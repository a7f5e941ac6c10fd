import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PASSWORD, testApp } from "../../test-support";
import type { SsoFlags } from "./settings";
import { startTestProvider, type TestProvider, type TestUser } from "./test-provider";

// Single sign-on through the API against a real (local) OpenID Connect provider: discovery, PKCE, state and nonce,
// the ID token's signature, audience and expiry, replayed and foreign callbacks, account matching and creation, the
// groups claim, settings and turning passwords off.

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider();
});
afterAll(() => provider.close());

const config = { tokenTtl: "7d", trustProxy: 0, links: { blog: "", video: "", tempMail: "" } };

async function setup(sso?: SsoFlags) {
  const t = await testApp({ config: { ...config, sso } });
  const admin = await t.signUp("admin", "admin@example.com");
  const settings = (body: Record<string, unknown>, token = admin.token) => t.call<any>("PUT", "/api/auth/sso/settings", { token, body });
  const enable = async (extra: Record<string, unknown> = {}) => {
    const r = await settings({ enabled: true, name: "Test IdP", issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, ...extra });
    expect(r.status).toBe(200);
  };
  const handle = (url: string, headers: Record<string, string> = {}) => t.app.handle(new Request(url, { headers }));

  /** The browser's round trip: start → provider → callback. Returns where Vigil sent it back, and the cookie. */
  async function roundTrip(user?: TestUser, returnTo = "/monitors") {
    if (user) provider.user = user;
    const start = await handle(`http://localhost/api/auth/sso/start?returnTo=${encodeURIComponent(returnTo)}`);
    expect(start.status).toBe(302);
    const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0]!;
    const atProvider = start.headers.get("location")!;
    if (!atProvider.startsWith(provider.issuer)) return { back: new URL(atProvider, "http://localhost"), cookie, callback: "" };
    const answer = await fetch(atProvider, { redirect: "manual" });
    const callback = answer.headers.get("location")!;
    const back = await handle(callback, { cookie });
    expect(back.status).toBe(302);
    return { back: new URL(back.headers.get("location")!, "http://localhost"), cookie, callback };
  }
  /** A whole sign-in: the exchange's reply (a session, or the two-factor step), or the sign-in page's error code. */
  async function signOn(user?: TestUser) {
    const { back } = await roundTrip(user);
    const error = back.searchParams.get("ssoError");
    if (error) return { error };
    expect(back.pathname).toBe("/login");
    expect(back.searchParams.get("returnTo")).toBe("/monitors");
    const r = await t.call<any>("POST", "/api/auth/sso/exchange", { body: { ticket: back.searchParams.get("sso") } });
    expect(r.status).toBe(200);
    return r.body;
  }
  return { ...t, admin, settings, enable, handle, roundTrip, signOn };
}

const alice: TestUser = { sub: "alice-sub", email: "alice@example.com", email_verified: true, name: "Alice Liddell", preferred_username: "alice" };

describe("signing in", () => {
  test("discovery, PKCE, state and nonce; a first sign-in creates a viewer account and a session", async () => {
    const t = await setup();
    await t.enable();
    provider.seen.authorize.length = provider.seen.token.length = 0;
    const reply = await t.signOn(alice);
    expect(reply.user).toMatchObject({ username: "alice", email: "alice@example.com", role: "viewer", status: "active" });
    const me = await t.call<any>("GET", "/api/auth/me", { token: reply.token });
    expect(me.body.user.username).toBe("alice");
    const asked = provider.seen.authorize[0]!;
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("state")!.length).toBeGreaterThan(20);
    expect(asked.get("nonce")!.length).toBeGreaterThan(20);
    expect(asked.get("scope")).toBe("openid email profile");
    expect(asked.get("redirect_uri")).toBe("http://localhost/api/auth/sso/callback");
    expect(provider.seen.token[0]!.get("code_verifier")!.length).toBeGreaterThanOrEqual(43);
    // The same person again is the same account, even with another address at the provider.
    const again = await t.signOn({ ...alice, email: "alice@new.example.com" });
    expect(again.user.id).toBe(reply.user.id);
    expect((await t.call<any>("GET", "/api/users", { token: t.admin.token })).body.users).toHaveLength(2);
  });

  test("an existing account is matched by its verified e-mail address; an unverified one is refused", async () => {
    const t = await setup();
    await t.enable();
    const bob = await t.signUp("bob", "Bob@Example.com");
    expect(await t.signOn({ sub: "b1", email: "bob@example.com", email_verified: false })).toEqual({ error: "SSO_EMAIL_UNVERIFIED" });
    const reply = await t.signOn({ sub: "b1", email: "bob@example.com", email_verified: true, preferred_username: "robert" });
    expect(reply.user).toMatchObject({ id: bob.user.id, username: "bob", role: "editor" });
  });

  test("without account creation, someone no account matches is refused; a disabled account is refused", async () => {
    const t = await setup();
    await t.enable({ createAccounts: false });
    expect(await t.signOn({ sub: "x1", email: "nobody@example.com", email_verified: true })).toEqual({ error: "SSO_NO_ACCOUNT" });
    const carol = await t.signUp("carol", "carol@example.com");
    await t.call("PUT", `/api/users/${carol.user.id}`, { token: t.admin.token, body: { username: "carol", status: "disabled" } });
    expect(await t.signOn({ sub: "c1", email: "carol@example.com", email_verified: true })).toEqual({ error: "SSO_ACCOUNT_DISABLED" });
  });

  test("usernames are made free; the groups claim sets the role at every sign-in", async () => {
    const t = await setup();
    await t.enable({ adminGroups: ["vigil-admins"], editorGroups: ["ops"], defaultRole: "viewer" });
    const first = await t.signOn({ sub: "d1", email: "admin@elsewhere.example", email_verified: true, preferred_username: "admin", groups: ["ops"] });
    expect(first.user).toMatchObject({ username: "admin-2", role: "editor" });
    const promoted = await t.signOn({ sub: "d1", groups: ["ops", "vigil-admins"] });
    expect(promoted.user.role).toBe("admin");
    const dropped = await t.signOn({ sub: "d1", groups: [] });
    expect(dropped.user.role).toBe("viewer");
  });

  test("a user with two-factor on gets the code step after the provider", async () => {
    const t = await setup();
    await t.enable();
    const { token } = await t.signOn(alice);
    // The account single sign-on created has a password nobody knows: setting up does not ask for it.
    expect((await t.call<any>("GET", "/api/auth/2fa", { token })).body.passwordRequired).toBe(false);
    const s = await t.call<any>("POST", "/api/auth/2fa/setup", { token });
    expect(s.status).toBe(200);
    const { TOTP, Secret } = await import("otpauth");
    const code = new TOTP({ secret: Secret.fromBase32(s.body.secret) }).generate();
    expect((await t.call("POST", "/api/auth/2fa/enable", { token, body: { code } })).status).toBe(200);
    const reply = await t.signOn(alice);
    expect(reply.twoFactor).toBe(true);
    expect(reply.token).toBeUndefined();
    expect(typeof reply.challenge).toBe("string");
  });
});

describe("what is refused", () => {
  test.each([
    ["an ID token signed by another key", { forged: true }],
    ["an ID token for another audience", { audience: "someone-else" }],
    ["an expired ID token", { expiresIn: -60 }],
    ["an ID token with another nonce", { nonce: "not-the-one" }],
    ["an ID token from another issuer", { issuer: "http://127.0.0.1:1" }],
  ])("%s: no session, no account", async (_, tweak) => {
    const t = await setup();
    await t.enable();
    provider.nextToken = tweak;
    expect(await t.signOn({ ...alice, sub: "mallory" })).toEqual({ error: "SSO_FAILED" });
    expect((await t.call<any>("GET", "/api/users", { token: t.admin.token })).body.users).toHaveLength(1);
  });

  test("a replayed callback, a callback in another browser, a ticket used twice", async () => {
    const t = await setup();
    await t.enable();
    const { back, cookie, callback } = await t.roundTrip(alice);
    const ticket = back.searchParams.get("sso")!;
    const replay = await t.handle(callback, { cookie });
    expect(new URL(replay.headers.get("location")!, "http://x").searchParams.get("ssoError")).toBe("SSO_STATE_INVALID");
    expect((await t.call("POST", "/api/auth/sso/exchange", { body: { ticket } })).status).toBe(200);
    const twice = await t.call("POST", "/api/auth/sso/exchange", { body: { ticket } });
    expect([twice.status, twice.body.code]).toEqual([401, "SSO_TICKET_INVALID"]);

    // Started in one browser, answered in another (no state cookie, or someone else's): refused.
    const start = await t.handle("http://localhost/api/auth/sso/start");
    const answer = await fetch(start.headers.get("location")!, { redirect: "manual" });
    const foreign = await t.handle(answer.headers.get("location")!, { cookie: "vigil_sso_state=someone-elses" });
    expect(new URL(foreign.headers.get("location")!, "http://x").searchParams.get("ssoError")).toBe("SSO_STATE_INVALID");
  });

  test("the provider saying no, SSO not set up, a return address on another site", async () => {
    const t = await setup();
    const off = await t.roundTrip();
    expect(off.back.searchParams.get("ssoError")).toBe("SSO_NOT_CONFIGURED");
    await t.enable();
    provider.denyNext = true;
    expect(await t.signOn(alice)).toEqual({ error: "SSO_DENIED" });
    const { back } = await t.roundTrip(alice, "//evil.example/x");
    expect(back.searchParams.get("returnTo")).toBe("/dashboard");
  });
});

describe("settings", () => {
  test("admins only; the client secret never shown; bad settings refused with a message", async () => {
    const t = await setup();
    const viewer = await t.signUp("vera");
    await t.call("PUT", `/api/users/${viewer.user.id}`, { token: t.admin.token, body: { username: "vera", role: "viewer" } });
    const editor = await t.signUp("eddie");
    for (const who of [viewer, editor]) {
      expect((await t.call("GET", "/api/auth/sso/settings", { token: who.token })).status).toBe(403);
      expect((await t.settings({ enabled: false }, who.token)).status).toBe(403);
    }
    await t.enable();
    const got = await t.call<any>("GET", "/api/auth/sso/settings", { token: t.admin.token });
    expect(got.body).toMatchObject({ source: "settings", redirectUri: "http://localhost/api/auth/sso/callback", settings: { enabled: true, clientSecretSet: true, name: "Test IdP" } });
    expect(JSON.stringify(got.body)).not.toContain(provider.clientSecret);
    // A change without the secret keeps it.
    await t.settings({ name: "Corp" });
    expect((await t.signOn(alice)).user.username).toBe("alice");

    const bad: [Record<string, unknown>, string][] = [
      [{ issuer: "http://idp.example.com" }, "https"],
      [{ issuer: "not a url" }, "URL"],
      [{ scopes: "email profile" }, "openid"],
      [{ clientId: "" }, "client id"],
      [{ name: "" }, "name"],
      [{ name: "Corp\u202e" }, "name"],
      [{ defaultRole: "owner" }, "role"],
    ];
    for (const [body, words] of bad) {
      const r = await t.settings(body);
      expect([r.status, r.body.success]).toEqual([400, false]);
      expect(r.body.message).toContain(words);
    }
  });

  test("testing the provider: its discovery answers, or the reason it does not", async () => {
    const t = await setup();
    const ok = await t.call<any>("POST", "/api/auth/sso/settings/test", { token: t.admin.token, body: { issuer: provider.issuer, clientId: "vigil" } });
    expect(ok.status).toBe(200);
    expect(ok.body.provider).toMatchObject({ issuer: provider.issuer, pkce: true, tokenEndpoint: `${provider.issuer}/token` });
    const down = await t.call<any>("POST", "/api/auth/sso/settings/test", { token: t.admin.token, body: { issuer: "http://127.0.0.1:1", clientId: "vigil" } });
    expect([down.status, down.body.code]).toEqual([400, "SSO_DISCOVERY_FAILED"]);
  });

  test("password sign-in turned off: only with SSO on and tried by the admin; /api/config says so", async () => {
    const t = await setup();
    const early = await t.settings({ passwordLogin: false });
    expect([early.status, early.body.code]).toEqual([400, "SSO_REQUIRED"]);
    await t.enable();
    const untried = await t.settings({ passwordLogin: false });
    expect([untried.status, untried.body.code]).toEqual([409, "SSO_NOT_TRIED"]);
    await t.signOn({ sub: "admin-sub", email: "admin@example.com", email_verified: true });
    expect((await t.settings({ passwordLogin: false })).status).toBe(200);
    const login = await t.call("POST", "/api/auth/login", { body: { username: "admin", password: PASSWORD } });
    expect([login.status, login.body.code]).toEqual([403, "PASSWORD_LOGIN_DISABLED"]);
    expect((await t.call<any>("GET", "/api/config")).body).toMatchObject({ sso: { name: "Test IdP" }, passwordLogin: false });
    // SSO turned off brings passwords back: nobody is locked out.
    await t.settings({ enabled: false });
    expect((await t.call("POST", "/api/auth/login", { body: { username: "admin", password: PASSWORD } })).status).toBe(200);
    expect((await t.call<any>("GET", "/api/config")).body).toMatchObject({ sso: null, passwordLogin: true });
  });

  test("set by flags: read-only here, signs in, --password-login forces passwords back", async () => {
    const t = await setup({
      provider: { enabled: true, name: "Flags IdP", issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, scopes: "openid email", createAccounts: true, defaultRole: "editor", groupsClaim: "groups", adminGroups: [], editorGroups: [], viewerGroups: [] },
      passwordLogin: true,
    });
    const got = await t.call<any>("GET", "/api/auth/sso/settings", { token: t.admin.token });
    expect(got.body).toMatchObject({ source: "flags", passwordLoginForced: true, settings: { name: "Flags IdP", clientSecretSet: true } });
    const change = await t.settings({ issuer: "https://other.example" });
    expect([change.status, change.body.code]).toEqual([409, "SSO_SET_BY_FLAGS"]);
    expect((await t.signOn(alice)).user.role).toBe("editor");
    expect((await t.settings({ passwordLogin: false })).status).toBe(200);
    expect((await t.call("POST", "/api/auth/login", { body: { username: "admin", password: PASSWORD } })).status).toBe(200);
  });
});
