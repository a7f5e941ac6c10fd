import { describe, expect, test } from "bun:test";
import { PASSWORD, testApp } from "../test-support";
import type { PublicUser } from "./public";

/** An instance with an admin (alice), a user (bob) and another user (carol). */
async function team() {
  const t = await testApp();
  const admin = await t.signUp("alice", "alice@example.com");
  const user = await t.signUp("bob", "bob@example.com");
  const other = await t.signUp("carol");
  return { ...t, admin, user, other };
}

describe("who may call what", () => {
  // [method, path for "other", body]
  const calls = (otherId: number): [string, string, unknown][] => [
    ["GET", "/api/users", undefined],
    ["POST", "/api/users", { username: "dave", password: PASSWORD, role: "user" }],
    ["GET", `/api/users/${otherId}`, undefined],
    ["PUT", `/api/users/${otherId}`, { username: "carol2" }],
    ["DELETE", `/api/users/${otherId}`, undefined],
    ["POST", `/api/users/${otherId}/change-password`, { newPassword: "new password 1" }],
  ];

  test("anonymous callers get 401 everywhere", async () => {
    const { call, other } = await team();
    for (const [method, path, body] of calls(other.user.id)) {
      const res = await call(method, path, { body });
      expect({ method, path, status: res.status, success: res.body.success }).toEqual({ method, path, status: 401, success: false });
    }
  });

  test("a user gets 403 on the admin calls and on other users", async () => {
    const { call, user, other } = await team();
    for (const [method, path, body] of calls(other.user.id)) {
      const res = await call(method, path, { body, token: user.token });
      expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status: 403, code: "FORBIDDEN" });
    }
    // …and nothing changed.
    const carol = await call<{ user: PublicUser }>("GET", `/api/users/${other.user.id}`, { token: other.token });
    expect(carol.body.user.username).toBe("carol");
  });

  test("an admin may do all of it", async () => {
    const { call, admin, other } = await team();
    const expected = [200, 201, 200, 200, 200, 200];
    const got: number[] = [];
    for (const [method, path, body] of calls(other.user.id)) got.push((await call(method, path, { body, token: admin.token })).status);
    // Delete ran before change-password, so that last one is a 404.
    expect(got).toEqual([...expected.slice(0, 5), 404]);
  });

  test("a user reads and edits themself", async () => {
    const { call, user } = await team();
    expect((await call("GET", `/api/users/${user.user.id}`, { token: user.token })).status).toBe(200);
    const res = await call<{ user: PublicUser }>("PUT", `/api/users/${user.user.id}`, {
      token: user.token,
      body: { username: "bobby", email: "bobby@example.com" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: "Profile updated", user: { username: "bobby", email: "bobby@example.com", role: "editor" } });
    expect((await call<{ user: PublicUser }>("GET", "/api/auth/me", { token: user.token })).body.user.username).toBe("bobby");
  });

  test("a user cannot make themself admin or change their status", async () => {
    const { call, user } = await team();
    for (const body of [{ username: "bob", role: "admin" }, { username: "bob", status: "active" }]) {
      const res = await call("PUT", `/api/users/${user.user.id}`, { token: user.token, body });
      expect(res.status).toBe(403);
    }
    expect((await call<{ user: PublicUser }>("GET", "/api/auth/me", { token: user.token })).body.user.role).toBe("editor");
  });
});

describe("GET /api/users", () => {
  test("lists every user without secrets", async () => {
    const { call, admin } = await team();
    const res = await call<{ users: PublicUser[] }>("GET", "/api/users", { token: admin.token });
    expect(res.body.success).toBe(true);
    expect(res.body.users.map((u) => [u.username, u.role, u.email])).toEqual([
      ["alice", "admin", "alice@example.com"],
      ["bob", "editor", "bob@example.com"],
      ["carol", "editor", null],
    ]);
    expect(Object.keys(res.body.users[0]).sort()).toEqual(["createdAt", "email", "id", "role", "status", "twoFactor", "username"]);
  });
});

describe("POST /api/users", () => {
  test("an admin creates a user who can sign in", async () => {
    const { call, admin, login } = await team();
    const res = await call<{ user: PublicUser }>("POST", "/api/users", {
      token: admin.token,
      body: { username: "dave", email: "dave@example.com", password: "dave password", role: "admin" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, user: { username: "dave", role: "admin", email: "dave@example.com" } });
    expect((await login("dave", "dave password")).user.role).toBe("admin");
  });

  test("duplicates and bad fields are refused", async () => {
    const { call, admin } = await team();
    const dupName = await call("POST", "/api/users", { token: admin.token, body: { username: "Bob", password: PASSWORD } });
    expect([dupName.status, dupName.body.message]).toEqual([409, "Username already exists"]);
    const dupEmail = await call("POST", "/api/users", { token: admin.token, body: { username: "bob2", email: "BOB@example.com", password: PASSWORD } });
    expect([dupEmail.status, dupEmail.body.message]).toEqual([409, "Email already exists"]);
    const badRole = await call("POST", "/api/users", { token: admin.token, body: { username: "eve", password: PASSWORD, role: "root" } });
    expect([badRole.status, badRole.body.message]).toEqual([400, "Role must be admin, editor or viewer"]);
    const list = await call<{ users: PublicUser[] }>("GET", "/api/users", { token: admin.token });
    expect(list.body.users).toHaveLength(3);
  });
});

describe("PUT /api/users/:id", () => {
  test("an admin changes role and status", async () => {
    const { call, admin, user } = await team();
    const res = await call<{ user: PublicUser }>("PUT", `/api/users/${user.user.id}`, {
      token: admin.token,
      body: { username: "bob", role: "admin", status: "disabled" },
    });
    expect(res.body.user).toMatchObject({ role: "admin", status: "disabled" });
  });

  test("an empty email clears it; an absent one keeps it", async () => {
    const { call, user } = await team();
    const kept = await call<{ user: PublicUser }>("PUT", `/api/users/${user.user.id}`, { token: user.token, body: { username: "bob" } });
    expect(kept.body.user.email).toBe("bob@example.com");
    const cleared = await call<{ user: PublicUser }>("PUT", `/api/users/${user.user.id}`, { token: user.token, body: { username: "bob", email: "" } });
    expect(cleared.body.user.email).toBeNull();
  });

  test("taking someone else's username or email is a 409", async () => {
    const { call, user } = await team();
    const name = await call("PUT", `/api/users/${user.user.id}`, { token: user.token, body: { username: "CAROL" } });
    expect([name.status, name.body.code]).toEqual([409, "USERNAME_EXISTS"]);
    const email = await call("PUT", `/api/users/${user.user.id}`, { token: user.token, body: { username: "bob", email: "alice@example.com" } });
    expect([email.status, email.body.code]).toEqual([409, "EMAIL_EXISTS"]);
  });

  test("keeping your own username with other case is fine", async () => {
    const { call, user } = await team();
    const res = await call<{ user: PublicUser }>("PUT", `/api/users/${user.user.id}`, { token: user.token, body: { username: "Bob" } });
    expect(res.body.user.username).toBe("Bob");
  });

  test("the only admin cannot demote or disable themself", async () => {
    const { call, admin } = await team();
    const demote = await call("PUT", `/api/users/${admin.user.id}`, { token: admin.token, body: { username: "alice", role: "user" } });
    expect([demote.status, demote.body.code]).toEqual([409, "LAST_ADMIN"]);
    const disable = await call("PUT", `/api/users/${admin.user.id}`, { token: admin.token, body: { username: "alice", status: "disabled" } });
    expect(disable.status).toBe(409);
    expect((await call<{ user: PublicUser }>("GET", "/api/auth/me", { token: admin.token })).body.user.role).toBe("admin");
  });

  test("missing username is a 400", async () => {
    const { call, user } = await team();
    const res = await call("PUT", `/api/users/${user.user.id}`, { token: user.token, body: { email: "x@example.com" } });
    expect(res.status).toBe(400);
  });
});

describe("DELETE /api/users/:id", () => {
  test("an admin deletes a user, who is gone", async () => {
    const { call, admin, user } = await team();
    const res = await call("DELETE", `/api/users/${user.user.id}`, { token: admin.token });
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect((await call("GET", `/api/users/${user.user.id}`, { token: admin.token })).status).toBe(404);
    expect((await call("POST", "/api/auth/login", { body: { username: "bob", password: PASSWORD } })).status).toBe(401);
  });

  test("nobody deletes themself", async () => {
    const { call, admin } = await team();
    const res = await call("DELETE", `/api/users/${admin.user.id}`, { token: admin.token });
    expect([res.status, res.body.code]).toEqual([409, "CANNOT_DELETE_SELF"]);
  });

  test("deleting an admin while another remains works; the last one stays", async () => {
    const { call, admin, user } = await team();
    await call("PUT", `/api/users/${user.user.id}`, { token: admin.token, body: { username: "bob", role: "admin" } });
    expect((await call("DELETE", `/api/users/${admin.user.id}`, { token: user.token })).status).toBe(200);
    expect((await call("DELETE", `/api/users/${user.user.id}`, { token: user.token })).status).toBe(409);
  });
});

describe("POST /api/users/:id/change-password", () => {
  test("your own change needs the current password, revokes old tokens and returns a new one", async () => {
    const { call, user, login } = await team();
    const path = `/api/users/${user.user.id}/change-password`;
    const missing = await call("POST", path, { token: user.token, body: { newPassword: "brand new pass" } });
    expect([missing.status, missing.body.message]).toEqual([400, "Current password is required"]);
    const wrong = await call("POST", path, { token: user.token, body: { currentPassword: "not it at all", newPassword: "brand new pass" } });
    expect([wrong.status, wrong.body.code, wrong.body.message]).toEqual([400, "WRONG_CURRENT_PASSWORD", "Current password is incorrect"]);
    const short = await call("POST", path, { token: user.token, body: { currentPassword: PASSWORD, newPassword: "short" } });
    expect(short.status).toBe(400);

    const ok = await call<{ token: string }>("POST", path, { token: user.token, body: { currentPassword: PASSWORD, newPassword: "brand new pass" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, message: "Password changed" });
    expect((await call("GET", "/api/auth/me", { token: user.token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: ok.body.token })).status).toBe(200);
    expect((await call("POST", "/api/auth/login", { body: { username: "bob", password: PASSWORD } })).status).toBe(401);
    expect((await login("bob", "brand new pass")).user.username).toBe("bob");
  });

  test("an admin resets someone else's password without theirs", async () => {
    const { call, admin, user, login } = await team();
    const res = await call("POST", `/api/users/${user.user.id}/change-password`, { token: admin.token, body: { newPassword: "reset by admin" } });
    expect(res.status).toBe(200);
    expect(res.body.token).toBeUndefined();
    expect((await call("GET", "/api/auth/me", { token: user.token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: admin.token })).status).toBe(200);
    await login("bob", "reset by admin");
  });
});

describe("bad ids", () => {
  test.each(["abc", "0", "-1", "1.5", "1e3", "99999999999999999999"])("/api/users/%s is a 400", async (id) => {
    const { call, admin } = await team();
    const res = await call("GET", `/api/users/${id}`, { token: admin.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, code: "VALIDATION", message: "Invalid user id" });
  });

  test("an unknown id is a 404 for every call", async () => {
    const { call, admin } = await team();
    for (const [method, path, body] of [
      ["GET", "/api/users/999", undefined],
      ["PUT", "/api/users/999", { username: "ghost" }],
      ["DELETE", "/api/users/999", undefined],
      ["POST", "/api/users/999/change-password", { newPassword: "whatever 123" }],
    ] as const) {
      const res = await call(method, path, { token: admin.token, body });
      expect([method, res.status, res.body.code]).toEqual([method, 404, "USER_NOT_FOUND"]);
    }
  });

  test("unknown API paths are a JSON 404", async () => {
    const { call } = await team();
    const res = await call("GET", "/api/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND" });
    expect((await call("POST", "/api/nothing-here", { body: {} })).status).toBe(404);
  });
});
