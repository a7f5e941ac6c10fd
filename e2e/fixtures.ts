import { test as base, expect, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const PASSWORD = "correct horse";
const BINARY = resolve(process.env.VIGIL_BINARY ?? "dist/vigil");

/** A running Vigil executable on a free port with its own empty data dir. */
export interface Vigil {
  url: string;
  /** Its data directory (vigil.db inside), for tests that must age what time would. */
  dataDir: string;
  /** Calls the API directly (setup steps the test is not about). */
  api<T = any>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  /** Makes an account (the first registers and becomes admin; later ones are created by it); returns token and user. */
  register(username: string, email?: string): Promise<{ token: string; user: any }>;
}

/** A port free now (for a server that must know its own address before it starts: --public-url). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startVigil({ publicUrl, serverEnv }: { publicUrl: boolean; serverEnv: Record<string, string> }): Promise<{ vigil: Vigil; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "vigil-e2e-"));
  // With its public address given, as behind a reverse proxy: alerts then carry links back to it.
  const port = publicUrl ? await freePort() : 0;
  const address = publicUrl ? ["--public-url", `http://127.0.0.1:${port}`] : [];
  // Hundreds of accounts are made and signed in here: OWASP's floor for argon2id (19 MiB) instead of the default 64
  // spends a quarter of the CPU on each (the server's own option; the API tests cover the default).
  const proc: ChildProcess = spawn(BINARY, ["--port", String(port), ...address, "--data-dir", dataDir, "--password-hash-memory", "19"], {
    cwd: dataDir, // the executable must need nothing beside it
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...serverEnv },
  });
  let output = "";
  const url = await new Promise<string>((resolvePort, reject) => {
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
      reject(new Error(`vigil did not start:\n${output}`));
      // On CI the first servers start while every suite starts beside them on two cores: once, one took over 10 s.
    }, process.env.CI ? 30_000 : 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolvePort(m[1]);
      }
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    proc.on("exit", (code) => reject(new Error(`vigil exited with ${code}:\n${output}`)));
  });

  const api: Vigil["api"] = async (method, path, body, token) => {
    const res = await fetch(url + path, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  // The first account registers; later ones are created by it (registration is closed after the first).
  let adminToken: string | undefined;
  const register: Vigil["register"] = async (username, email) => {
    const body = { username, email, password: PASSWORD, confirmPassword: PASSWORD };
    const reg = adminToken ? await api("POST", "/api/users", body, adminToken) : await api("POST", "/api/auth/register", body);
    if (reg.status !== 201) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
    const login = await api("POST", "/api/auth/login", { username, password: PASSWORD });
    adminToken ??= login.body.token;
    return { token: login.body.token, user: login.body.user };
  };

  const stop = async () => {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { vigil: { url, dataDir, api, register }, stop };
}

export const test = base.extend<{ vigil: Vigil; publicUrl: boolean; serverEnv: Record<string, string> }>({
  /** Whether the server is started with --public-url (its own address): `test.use({ publicUrl: true })`. */
  publicUrl: [false, { option: true }],
  /** More environment for the server, e.g. `test.use({ serverEnv: { VIGIL_TEST_MINUTE_MS: "3000" } })` (a short minute). */
  serverEnv: [{}, { option: true }],
  vigil: async ({ publicUrl, serverEnv }, use) => {
    const { vigil, stop } = await startVigil({ publicUrl, serverEnv });
    await use(vigil);
    await stop();
  },
  baseURL: async ({ vigil }, use) => use(vigil.url),
  // Every test starts in a known language unless it sets one: zh-CN is the product default.
  locale: "zh-CN",
  // The app registers its service worker on every page; in a fresh context that starts the worker, caches the shell
  // and routes each later navigation through it: about half a second of CPU per page load on CI's two cores. The
  // tests of the worker itself (PWA, push) allow it with `test.use({ serviceWorkers: "allow" })`.
  serviceWorkers: "block",
});

/** Signs in through the real login form. */
export async function signIn(page: Page, username: string, password = PASSWORD) {
  await page.goto("/login");
  const form = page.getByTestId("login-form");
  await form.locator("input[name=username]").fill(username);
  await form.locator("input[name=password]").fill(password);
  await page.getByTestId("login-submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** How many sessions each page was given by withSession (its init scripts seed in that order, each once). */
const seeded = new WeakMap<Page, number>();

/**
 * Puts a session into localStorage, as a login would, and opens `path`: one page load. The session is written by an
 * init script before the app's own scripts run, once per call (a later sign-out or reload is left alone; a second
 * call, for another account, seeds at the next navigation).
 */
export async function withSession(page: Page, session: { token: string; user: unknown }, path = "/dashboard") {
  const n = (seeded.get(page) ?? 0) + 1;
  seeded.set(page, n);
  await page.addInitScript(
    ({ token, user, n }) => {
      try {
        if (Number(sessionStorage.getItem("e2e-seeded") ?? 0) >= n) return;
        sessionStorage.setItem("e2e-seeded", String(n));
        localStorage.setItem("token", token);
        localStorage.setItem("user", JSON.stringify(user));
      } catch {
        // about:blank and other opaque origins have no storage
      }
    },
    { token: session.token, user: session.user, n },
  );
  await page.goto(path);
}

export { expect };
