import { describe, expect, test } from "bun:test";
import { createApp } from "../app";
import { PASSWORD, TEST_SECRET, testApp } from "../test-support";
import { DatabaseFailureLimiter, FailureLimiter } from "./rate-limit";
import { openDatabase } from "../db/open";
import { createPasswordHasher } from "./passwords";
import { testDb, testEngine, testSchema } from "../db/test-db";

describe("register", () => {
  test("the first account registers freely, becomes admin and is signed in; then registration is closed", async () => {
    const { call } = await testApp();
    expect((await call("GET", "/api/config")).body).toMatchObject({ firstRun: true, registrationOpen: true });
    const first = await call<{ token: string }>("POST", "/api/auth/register", { body: { username: "alice", password: PASSWORD, confirmPassword: PASSWORD } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ success: true, user: { username: "alice", role: "admin", status: "active", email: null } });
    const me = await call("GET", "/api/auth/me", { token: first.body.token });
    expect(me.body).toMatchObject({ success: true, user: { username: "alice" } });
    expect((await call("GET", "/api/config")).body).toMatchObject({ firstRun: false, registrationOpen: false });
    const second = await call("POST", "/api/auth/register", { body: { username: "bob", email: "bob@example.com", password: PASSWORD } });
    expect(second.status).toBe(403);
    expect(second.body).toEqual({
      success: false,
      code: "REGISTRATION_CLOSED",
      message: "Registration is closed: ask an administrator for an account or an invite link",
    });
  });

  test("never returns the password hash", async () => {
    const { call } = await testApp();
    const res = await call("POST", "/api/auth/register", { body: { username: "alice", password: PASSWORD } });
    expect(JSON.stringify(res.body)).not.toContain("argon2");
    expect(JSON.stringify(res.body)).not.toContain("passwordHash");
  });

  test("mismatched passwords are refused", async () => {
    const { call } = await testApp();
    const res = await call("POST", "/api/auth/register", { body: { username: "alice", password: PASSWORD, confirmPassword: "something else" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: "PASSWORDS_DO_NOT_MATCH", message: "Passwords do not match" });
  });

  test("usernames and emails are unique, ignoring case", async () => {
    const { call, signUp } = await testApp();
    const { token } = await signUp("alice", "alice@example.com");
    await call("PUT", "/api/registration", { token, body: { open: true } });
    const sameName = await call("POST", "/api/auth/register", { body: { username: "ALICE", password: PASSWORD } });
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ success: false, code: "USERNAME_EXISTS", message: "Username already exists" });
    const sameEmail = await call("POST", "/api/auth/register", { body: { username: "alice2", email: "Alice@Example.com", password: PASSWORD } });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toMatchObject({ success: false, code: "EMAIL_EXISTS", message: "Email already exists" });
  });

  test.each([
    [{ username: "al", password: PASSWORD }, "Username must be 3-32 characters without spaces"],
    [{ username: "a".repeat(33), password: PASSWORD }, "Username must be 3-32 characters without spaces"],
    [{ username: "al ice", password: PASSWORD }, "Username must be 3-32 characters without spaces"],
    [{ username: "alice", password: "short" }, "Password must be at least 8 characters"],
    [{ username: "alice", password: PASSWORD, email: "not-an-email" }, "Invalid email address"],
    [{ username: "alice" }, "Password must be at least 8 characters"],
    [{ password: PASSWORD }, "Username must be 3-32 characters without spaces"],
    [{ username: 42, password: PASSWORD }, "Username must be 3-32 characters without spaces (got the number 42)"],
    [{ username: "alice", password: ["x"] }, "Password must be at least 8 characters"],
  ])("bad fields are a 400 with a clear message: %j", async (body, message) => {
    const { call } = await testApp();
    const res = await call("POST", "/api/auth/register", { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: "VALIDATION", message });
    expect((await call("GET", "/api/config")).body.firstRun).toBe(true); // nothing written
  });

  test("malformed JSON, other content types and oversized bodies are 4xx, never 500", async () => {
    const { call } = await testApp();
    const bad = await call("POST", "/api/auth/register", { raw: "{\"username\": " });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: "BAD_JSON" });
    const form = await call("POST", "/api/auth/register", { raw: "username=a", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    const big = await call("POST", "/api/auth/register", { raw: JSON.stringify({ username: "x".repeat(1_100_000) }) });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ success: false, code: "BODY_TOO_LARGE", message: "The request body is larger than 1 MB" });
    const array = await call("POST", "/api/auth/register", { raw: "[]" });
    expect(array.status).toBe(400);
  });

  test("a chunked body over 1 MB is cut off with 413", async () => {
    const { app } = await testApp();
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new Uint8Array(64 * 1024).fill(32));
        c.close();
      },
    });
    const res = await app.handle(
      new Request("http://localhost/api/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body: stream }),
    );
    expect(res.status).toBe(413);
  });
});

describe("login", () => {
  test("by username or email, returning a token and the user", async () => {
    const { call, signUp } = await testApp();
    await signUp("alice", "alice@example.com");
    for (const username of ["alice", "ALICE", "alice@example.com"]) {
      const res = await call("POST", "/api/auth/login", { body: { username, password: PASSWORD } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, user: { username: "alice", role: "admin" } });
      expect(typeof res.body.token).toBe("string");
    }
  });

  test("a wrong password or unknown user gets the same 401", async () => {
    const { call, signUp } = await testApp();
    await signUp("alice");
    const wrong = await call("POST", "/api/auth/login", { body: { username: "alice", password: "wrong password" } });
    const unknown = await call("POST", "/api/auth/login", { body: { username: "nobody", password: PASSWORD } });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, code: "INVALID_CREDENTIALS", message: "Incorrect username or password" });
    }
  });

  test("missing fields are a 400", async () => {
    const { call } = await testApp();
    const res = await call("POST", "/api/auth/login", { body: { username: "alice" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: "Password is required" });
  });

  test("five wrong passwords lock the account for a while, even for the right password", async () => {
    const { call, signUp } = await testApp();
    await signUp("alice");
    for (let i = 0; i < 5; i++) {
      expect((await call("POST", "/api/auth/login", { body: { username: "alice", password: `guess-${i}-xx` } })).status).toBe(401);
    }
    const locked = await call("POST", "/api/auth/login", { body: { username: "Alice", password: PASSWORD } });
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ success: false, code: "TOO_MANY_ATTEMPTS" });
    expect(locked.body.message).toMatch(/Too many failed sign-in attempts/);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("an address that guesses across many accounts is limited too", async () => {
    const { call, signUp } = await testApp({
      limits: { byAccount: new FailureLimiter(100, 60_000), byIp: new FailureLimiter(3, 60_000), codes: new FailureLimiter(100, 60_000) },
    });
    await signUp("alice");
    for (const username of ["a1", "a2", "a3"]) {
      expect((await call("POST", "/api/auth/login", { body: { username, password: "whatever1" } })).status).toBe(401);
    }
    expect((await call("POST", "/api/auth/login", { body: { username: "alice", password: PASSWORD } })).status).toBe(429);
  });

  test("a successful login clears the account's failures", async () => {
    const { call, signUp } = await testApp();
    await signUp("alice");
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) await call("POST", "/api/auth/login", { body: { username: "alice", password: "nope-nope" } });
      expect((await call("POST", "/api/auth/login", { body: { username: "alice", password: PASSWORD } })).status).toBe(200);
    }
  });

  test("a disabled account answers the right password exactly as a wrong one (no password oracle)", async () => {
    const { call, signUp } = await testApp();
    const admin = await signUp("alice");
    const bob = await signUp("bob");
    await call("PUT", `/api/users/${bob.user.id}`, { token: admin.token, body: { username: "bob", status: "disabled" } });
    const right = await call("POST", "/api/auth/login", { body: { username: "bob", password: PASSWORD } });
    const wrong = await call("POST", "/api/auth/login", { body: { username: "bob", password: "not the password" } });
    expect(right.status).toBe(401);
    expect(right.body).toEqual(wrong.body);
    expect(right.body).toEqual({ success: false, code: "INVALID_CREDENTIALS", message: "Incorrect username or password" });
  });

  test("the per-account limit counts the account, whichever of its names is typed", async () => {
    const { call, signUp } = await testApp();
    await signUp("alice", "alice@example.com");
    for (let i = 0; i < 3; i++) await call("POST", "/api/auth/login", { body: { username: "alice", password: `guess-${i}-xx` } });
    for (let i = 3; i < 5; i++) await call("POST", "/api/auth/login", { body: { username: "ALICE@example.com", password: `guess-${i}-xx` } });
    // The right password typed as the email no longer signs in while the username is locked (and vice versa).
    const byEmail = await call("POST", "/api/auth/login", { body: { username: "alice@example.com", password: PASSWORD } });
    expect(byEmail.status).toBe(429);
    expect((await call("POST", "/api/auth/login", { body: { username: "alice", password: PASSWORD } })).status).toBe(429);
  });

  test("names that match no account are limited on their own, without locking real accounts", async () => {
    const { call, signUp } = await testApp();
    await signUp("alice");
    for (let i = 0; i < 5; i++) {
      expect((await call("POST", "/api/auth/login", { body: { username: "ghost", password: `guess-${i}-xx` } })).status).toBe(401);
    }
    expect((await call("POST", "/api/auth/login", { body: { username: "Ghost", password: "guess-x-xx" } })).status).toBe(429);
    expect((await call("POST", "/api/auth/login", { body: { username: "alice", password: PASSWORD } })).status).toBe(200);
  });

  test("behind a trusted proxy the address is the one the proxy added, not what the client wrote", async () => {
    const { call, signUp } = await testApp({
      config: { tokenTtl: "7d", trustProxy: 1, links: { blog: "", video: "", tempMail: "" } },
      limits: { byAccount: new FailureLimiter(100, 60_000), byIp: new FailureLimiter(3, 60_000), codes: new FailureLimiter(100, 60_000) },
    });
    await signUp("alice");
    // The attacker varies the left-most entry on every try; the proxy appends the real address on the right.
    for (let i = 0; i < 3; i++) {
      const headers = { "x-forwarded-for": `10.0.0.${i}, 203.0.113.7` };
      expect((await call("POST", "/api/auth/login", { headers, body: { username: `a${i}`, password: "whatever1" } })).status).toBe(401);
    }
    const locked = await call("POST", "/api/auth/login", { headers: { "x-forwarded-for": "10.9.9.9, 203.0.113.7" }, body: { username: "alice", password: PASSWORD } });
    expect(locked.status).toBe(429);
    // Another client behind the same proxy is not locked out.
    const other = await call("POST", "/api/auth/login", { headers: { "x-forwarded-for": "10.9.9.9, 198.51.100.2" }, body: { username: "alice", password: PASSWORD } });
    expect(other.status).toBe(200);
  });

  test("a control character (NUL included) in a name is refused as any bad name is, never a 500", async () => {
    const { call, signUp } = await testApp();
    const { token } = await signUp("alice");
    const login = await call("POST", "/api/auth/login", { body: { username: "ali\u0000ce", password: PASSWORD } });
    expect([login.status, login.body.code]).toEqual([401, "INVALID_CREDENTIALS"]);
    for (const username of ["ab\u0000c", "ab\u0007c", "abc\u007f"]) {
      const created = await call("POST", "/api/users", { token, body: { username, password: PASSWORD } });
      expect([created.status, created.body.message]).toEqual([400, "Username must be 3-32 characters without spaces"]);
      const renamed = await call("PUT", "/api/users/1", { token, body: { username } });
      expect([renamed.status, renamed.body.code]).toEqual([400, "VALIDATION"]);
    }
    // Letters of any script are fine.
    expect((await call("POST", "/api/users", { token, body: { username: "José_Ωμέγα", password: PASSWORD } })).status).toBe(201);
  });

  test("replies that carry a token are never cached", async () => {
    const { call, signUp } = await testApp();
    const { token, user } = await signUp("alice");
    const replies = [
      await call("POST", "/api/auth/register", { body: { username: "bob", password: PASSWORD } }),
      await call("POST", "/api/auth/login", { body: { username: "alice", password: PASSWORD } }),
      await call("POST", `/api/users/${user.id}/change-password`, { token, body: { currentPassword: PASSWORD, newPassword: "a new password" } }),
      await call("POST", "/api/auth/login", { body: { username: "nobody", password: "x" } }),
      await call("GET", "/api/config"),
    ];
    for (const reply of replies) expect(reply.headers.get("cache-control")).toBe("no-store");
  });
});

describe("sessions", () => {
  test("/api/auth/me returns the signed-in user", async () => {
    const { call, signUp } = await testApp();
    const { token } = await signUp("alice", "a@example.com");
    const me = await call("GET", "/api/auth/me", { token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      success: true,
      user: { id: 1, username: "alice", email: "a@example.com", role: "admin", status: "active", createdAt: expect.any(Number), twoFactor: false },
    });
  });

  test.each([["no token", undefined], ["garbage", "not.a.jwt"], ["empty bearer", " "]])("%s gets 401", async (_name, token) => {
    const { call } = await testApp();
    const res = await call("GET", "/api/auth/me", { token });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, code: "UNAUTHORIZED" });
  });

  test("a token signed with another secret gets 401", async () => {
    const db = await testDb();
    const { signUp, services } = await testApp({ db });
    const { token } = await signUp("alice");
    const other = createApp({
      db,
      services,
      jwtSecret: TEST_SECRET.replace("test", "evil"),
      config: { tokenTtl: "7d", trustProxy: 0, links: { blog: "", video: "", tempMail: "" } },
      passwords: createPasswordHasher({ memoryCost: 256, timeCost: 1 }),
      uiDir: "/nonexistent",
    });
    const res = await other.handle(new Request("http://localhost/api/auth/me", { headers: { authorization: `Bearer ${token}` } }));
    expect(res.status).toBe(401);
  });

  test("an expired token gets 401", async () => {
    // 2 s, not 1: a token's times are whole seconds, so one signed late in a second may have less than 1 s left
    // (with a 1 s lifetime, a slow first call on PostgreSQL sometimes already met an expired token).
    const { call, signUp } = await testApp({ config: { tokenTtl: "2s", trustProxy: 0, links: { blog: "", video: "", tempMail: "" } } });
    const { token } = await signUp("alice");
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(200);
    await Bun.sleep(3100);
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
  });

  test("tokens of a deleted or disabled user stop working", async () => {
    const { call, signUp } = await testApp();
    const admin = await signUp("alice");
    const bob = await signUp("bob");
    const carol = await signUp("carol");
    await call("DELETE", `/api/users/${bob.user.id}`, { token: admin.token });
    expect((await call("GET", "/api/auth/me", { token: bob.token })).status).toBe(401);
    await call("PUT", `/api/users/${carol.user.id}`, { token: admin.token, body: { username: "carol", status: "disabled" } });
    expect((await call("GET", "/api/auth/me", { token: carol.token })).status).toBe(401);
  });

  test("a disabled user's sessions stay ended when the account is re-enabled; a new sign-in works", async () => {
    const { call, signUp, login } = await testApp();
    const admin = await signUp("alice");
    const bob = await signUp("bob");
    const elsewhere = await login("bob"); // a second session, on another device
    const set = (status: string) => call("PUT", `/api/users/${bob.user.id}`, { token: admin.token, body: { username: "bob", status } });
    expect((await set("disabled")).status).toBe(200);
    expect((await set("active")).status).toBe(200);
    for (const token of [bob.token, elsewhere.token]) {
      const res = await call("GET", "/api/auth/me", { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, code: "UNAUTHORIZED", message: "Your session has expired, please sign in again" });
    }
    const fresh = await login("bob");
    expect((await call("GET", "/api/auth/me", { token: fresh.token })).status).toBe(200);
    // Saving a disabled account again (say, a rename) changes nothing more; saving an active one ends nothing.
    expect((await set("active")).status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: fresh.token })).status).toBe(200);
  });
});

describe("FailureLimiter", () => {
  test("forgets failures once they leave the window", () => {
    let now = 0;
    const limiter = new FailureLimiter(2, 1000, 10, () => now);
    limiter.fail("k");
    now = 500;
    limiter.fail("k");
    expect(limiter.retryAfter("k")).toBe(1);
    now = 1001;
    expect(limiter.retryAfter("k")).toBe(0);
  });

  test("keeps at most maxKeys keys", () => {
    const limiter = new FailureLimiter(1, 60_000, 3);
    for (const k of ["a", "b", "c", "d"]) limiter.fail(k);
    expect(limiter.retryAfter("a")).toBe(0);
    expect(limiter.retryAfter("d")).toBeGreaterThan(0);
  });
});

describe.skipIf(testEngine !== "postgres")("sign-in limits across nodes (PostgreSQL)", () => {
  test("wrong passwords sent to two nodes count together: the fifth locks the account on both", async () => {
    const schema = await testSchema();
    const [dbA, dbB] = [await openDatabase(schema.url), await openDatabase(schema.url)];
    try {
      const a = await testApp({ db: dbA });
      const b = await testApp({ db: dbB });
      await a.signUp("alice");
      for (let i = 0; i < 5; i++) {
        const node = i % 2 ? b : a;
        expect((await node.call("POST", "/api/auth/login", { body: { username: "alice", password: `guess-${i}-xx` } })).status).toBe(401);
      }
      for (const node of [a, b]) expect((await node.call("POST", "/api/auth/login", { body: { username: "alice", password: PASSWORD } })).status).toBe(429);
    } finally {
      await dbA.close();
      await dbB.close();
      await schema.drop();
    }
  });

  test("the database limiter forgets failures once they leave the window; a success clears the account's", async () => {
    const db = await testDb();
    try {
      let now = 1_000_000;
      const limiter = new DatabaseFailureLimiter(db, "account", 2, 1000, () => now);
      await limiter.fail("k");
      now += 500;
      await limiter.fail("k");
      expect(await limiter.retryAfter("k")).toBe(1);
      expect(await limiter.retryAfter("other")).toBe(0);
      now += 501;
      expect(await limiter.retryAfter("k")).toBe(0);
      await limiter.fail("k");
      await limiter.fail("k");
      expect(await limiter.retryAfter("k")).toBeGreaterThan(0);
      await limiter.reset("k");
      expect(await limiter.retryAfter("k")).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe("--password-hash-memory", () => {
  test("new passwords are hashed with the memory it names; hashes made with another cost still sign in", async () => {
    const config = { tokenTtl: "7d", trustProxy: 0, links: { blog: "https://b.example", video: "https://v.example", tempMail: "https://m.example" } };
    const small = await testApp({ passwords: undefined, config: { ...config, passwordHashMemoryMib: 19 } });
    const alice = await small.signUp("alice");
    const hashOf = async (username: string) => {
      const rows = await small.db.orm.select().from(small.db.t.users);
      return rows.find((u) => u.username === username)!.passwordHash;
    };
    expect(await hashOf("alice")).toStartWith("$argon2id$v=19$m=19456,t=2,");

    // The same database behind the default cost (64 MiB): alice's 19 MiB hash still signs her in; bob's is 64 MiB.
    const usual = await testApp({ db: small.db, services: small.services, passwords: undefined, config });
    expect((await usual.call("POST", "/api/auth/login", { body: { username: "alice", password: PASSWORD } })).status).toBe(200);
    const bob = await usual.call("POST", "/api/users", { token: alice.token, body: { username: "bob", password: PASSWORD, confirmPassword: PASSWORD } });
    expect(bob.status).toBe(201);
    expect(await hashOf("bob")).toStartWith("$argon2id$v=19$m=65536,t=2,");
  });
});
