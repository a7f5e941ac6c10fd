// Test helpers: an app over an in-memory database, with cheap password hashing and fetch-like helpers.
import { createApp, type AppDeps } from "./app";
import { createPasswordHasher } from "./auth/passwords";
import { openDatabase } from "./db/open";
import type { PublicUser } from "./users/public";

export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";
export const PASSWORD = "correct horse";

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T & { success: boolean; message?: string; code?: string };
  headers: Headers;
}

export function testApp(overrides: Partial<AppDeps> = {}) {
  const db = overrides.db ?? openDatabase(":memory:");
  const app = createApp({
    db,
    jwtSecret: TEST_SECRET,
    config: { tokenTtl: "7d", trustProxy: false, links: { blog: "https://b.example", video: "https://v.example", tempMail: "https://m.example" } },
    passwords: createPasswordHasher({ memoryCost: 256, timeCost: 1 }),
    uiDir: "/nonexistent",
    ...overrides,
  });

  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { success: false, text };
    }
    return { status: res.status, body: parsed as Reply<T>["body"], headers: res.headers };
  }

  /** Registers and signs in; returns the token and user. */
  async function signUp(username: string, email?: string): Promise<{ token: string; user: PublicUser }> {
    const reg = await call("POST", "/api/auth/register", { body: { username, email, password: PASSWORD, confirmPassword: PASSWORD } });
    if (reg.status !== 201) throw new Error(`register ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    return login(username);
  }

  async function login(username: string, password = PASSWORD): Promise<{ token: string; user: PublicUser }> {
    const res = await call<{ token: string; user: PublicUser }>("POST", "/api/auth/login", { body: { username, password } });
    if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.token, user: res.body.user };
  }

  return { app, db, call, signUp, login };
}
