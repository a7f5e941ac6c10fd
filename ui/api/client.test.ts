import { afterEach, beforeEach, expect, test } from "bun:test";
import { clearSession, token, user } from "../state/session";
import { ApiError, TIMEOUT_MS, api } from "./client";

const realFetch = globalThis.fetch;
let calls: { url: string; init: RequestInit }[] = [];

function reply(status: number, body: unknown) {
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
}

beforeEach(() => {
  calls = [];
  clearSession();
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

test("sends JSON to the same origin, with the bearer token when one is stored, and a time-out signal", async () => {
  reply(200, { success: true, users: [] });
  token.value = "abc";
  const data = await api.post<{ users: unknown[] }>("/api/users", { a: 1 });
  expect(data.users).toEqual([]);
  const { url, init } = calls[0];
  const headers = init.headers as Record<string, string>;
  expect(url).toBe("/api/users");
  expect(init.method).toBe("POST");
  expect(init.body).toBe('{"a":1}');
  expect(headers["Content-Type"]).toBe("application/json");
  expect(headers.Authorization).toBe("Bearer abc");
  expect(init.signal).toBeInstanceOf(AbortSignal);
  expect(TIMEOUT_MS).toBe(60_000);
});

test("no Authorization header without a token", async () => {
  reply(200, { success: true });
  await api.get("/api/config");
  expect((calls[0].init.headers as Record<string, string>).Authorization).toBeUndefined();
});

test("an error reply becomes an ApiError with status, code, message and body", async () => {
  reply(429, { success: false, code: "TOO_MANY_ATTEMPTS", message: "Too many", retryAfter: 120 });
  const error = (await api.post("/api/auth/login", {}).catch((e) => e)) as ApiError;
  expect(error).toBeInstanceOf(ApiError);
  expect([error.status, error.code, error.serverMessage, error.body.retryAfter]).toEqual([429, "TOO_MANY_ATTEMPTS", "Too many", 120]);
});

test("a 200 without success: true is a failure too; a non-JSON reply has no message", async () => {
  reply(200, { success: false, message: "nope" });
  expect(((await api.get("/x").catch((e) => e)) as ApiError).serverMessage).toBe("nope");
  reply(502, "<html>bad gateway</html>");
  const error = (await api.get("/x").catch((e) => e)) as ApiError;
  expect([error.status, error.code, error.serverMessage]).toEqual([502, undefined, ""]);
});

test("a network failure is an ApiError with status 0 and no message", async () => {
  globalThis.fetch = (async () => {
    throw new TypeError("fetch failed");
  }) as unknown as typeof fetch;
  const error = (await api.get("/x").catch((e) => e)) as ApiError;
  expect([error.status, error.serverMessage]).toEqual([0, ""]);
});

test("any 401 clears the session", async () => {
  token.value = "old";
  user.value = { id: 1, username: "a", email: null, role: "admin", status: "active", createdAt: 0, twoFactor: false };
  reply(401, { success: false, code: "UNAUTHORIZED", message: "Please sign in" });
  await api.get("/api/users").catch(() => {});
  expect(token.value).toBeNull();
  expect(user.value).toBeNull();
});
