// Test helpers: an app over an in-memory database, with cheap password hashing and fetch-like helpers.
import { createApp, createServices, type AppDeps } from "./app";
import { createPasswordHasher } from "./auth/passwords";
import { testDb } from "./db/test-db";
import { startServices, stopServices } from "./lifecycle";
import type { PublicUser } from "./users/public";

export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";
export const PASSWORD = "correct horse";

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T & { success: boolean; message?: string; code?: string };
  headers: Headers;
}

/** An app over a fresh test database (SQLite in memory, or a PostgreSQL schema: server/db/test-db.ts). */
export async function testApp({ agentTokenTtlMs, ...overrides }: Partial<AppDeps> & { agentTokenTtlMs?: number } = {}) {
  const db = overrides.db ?? (await testDb());
  // Built here (not started) so tests can reach the services: monitor scheduler, agents, the bus.
  const services = overrides.services ?? (await createServices(db, { agentTokenTtlMs, secret: TEST_SECRET }));
  const app = createApp({
    db,
    jwtSecret: TEST_SECRET,
    config: { tokenTtl: "7d", trustProxy: 0, links: { blog: "https://b.example", video: "https://v.example", tempMail: "https://m.example" } },
    passwords: createPasswordHasher({ memoryCost: 256, timeCost: 1 }),
    uiDir: "/nonexistent",
    ...overrides,
    services,
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

  let adminToken: string | undefined;
  /**
   * Makes an account and signs in; returns the token and user. The first registers (and is the admin); later ones
   * are created by that admin, as registration is closed after the first.
   */
  async function signUp(username: string, email?: string): Promise<{ token: string; user: PublicUser }> {
    const body = { username, email, password: PASSWORD, confirmPassword: PASSWORD };
    const reg = adminToken
      ? await call("POST", "/api/users", { token: adminToken, body })
      : await call("POST", "/api/auth/register", { body });
    if (reg.status !== 201) throw new Error(`sign up ${username}: ${reg.status} ${JSON.stringify(reg.body)}`);
    const session = await login(username);
    adminToken ??= session.token;
    return session;
  }

  async function login(username: string, password = PASSWORD): Promise<{ token: string; user: PublicUser }> {
    const res = await call<{ token: string; user: PublicUser }>("POST", "/api/auth/login", { body: { username, password } });
    if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    return { token: res.body.token, user: res.body.user };
  }

  return { app, db, services, call, signUp, login };
}

/**
 * The fully wired server in this process for real-clock tests: createServices + createApp over a fresh database,
 * started as main.ts starts it (lifecycle.ts), its clocks real (`minuteMs` shortens a minute of the settings).
 * `stop()` stops it and closes the database.
 */
export async function wiredApp(options: Parameters<typeof createServices>[1] = {}) {
  const db = await testDb();
  const services = await createServices(db, options);
  const t = await testApp({ db, services });
  await startServices(services, { url: "http://127.0.0.1:1" });
  const stop = async () => {
    await stopServices(services, async () => {});
    await db.close();
  };
  return { ...t, stop };
}

/**
 * A clock whose time moves only when told: `advance(ms)` fires due timers in order, letting promises settle between
 * them, so minutes of scheduling run in milliseconds. Implements the monitors' Clock interface.
 */
export function fakeClock(start = Date.UTC(2026, 0, 5, 10, 0, 0)) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const settle = async () => {
    for (let i = 0; i < 3; i++) await new Promise<void>((r) => setImmediate(r));
  };
  const nextDue = (until: number) => {
    let best: [number, { at: number; fn: () => void }] | undefined;
    for (const entry of timers) if (entry[1].at <= until && (!best || entry[1].at < best[1].at)) best = entry;
    return best;
  };
  return {
    now: () => now,
    setTimeout(fn: () => void, ms: number): unknown {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle: unknown) {
      timers.delete(handle as number);
    },
    /** Moves time forward by `ms`, firing every timer due on the way at its own time. */
    async advance(ms: number) {
      const end = now + ms;
      await settle();
      for (let t = nextDue(end); t; t = nextDue(end)) {
        timers.delete(t[0]);
        now = Math.max(now, t[1].at);
        t[1].fn();
        await settle();
      }
      now = end;
      await settle();
    },
    /** Moves time without firing anything (a stalled process); the next advance fires what is overdue. */
    jump(ms: number) {
      now += ms;
    },
    get pending() {
      return timers.size;
    },
  };
}

export type FakeClock = ReturnType<typeof fakeClock>;
