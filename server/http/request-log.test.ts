import { describe, expect, test } from "bun:test";
import { createLogger } from "../log";
import { testApp } from "../test-support";
import { loggedPath } from "./request-log";

function logged() {
  const lines: string[] = [];
  return { lines, log: createLogger("debug", (l) => lines.push(l)) };
}

describe("request logs", () => {
  test("one line per API call with method, path, status, duration and address; no query, body or header", async () => {
    const { lines, log } = logged();
    const t = await testApp({ log });
    const { token } = await t.signUp("alice");
    await Bun.sleep(10);
    lines.length = 0;
    await t.call("GET", "/api/monitors?secret=hunter2", { token });
    await t.call("POST", "/api/auth/login", { body: { username: "alice", password: "wrong password here" } });
    await Bun.sleep(10); // logged after the response is sent
    const info = lines.filter((l) => l.includes(" INFO  request"));
    expect(info).toHaveLength(2);
    expect(info[0]).toMatch(/method=GET path=\/api\/monitors status=200 ms=[\d.]+ ip=local$/);
    expect(info[1]).toMatch(/method=POST path=\/api\/auth\/login status=401 /);
    const all = lines.join("\n");
    for (const secret of ["hunter2", "wrong password here", token]) expect(all).not.toContain(secret);
  });

  test("machine-facing routes and UI files are logged at debug level only", async () => {
    const { lines, log } = logged();
    const t = await testApp({ log });
    await t.call("GET", "/healthz");
    await t.call("GET", "/api/status");
    await Bun.sleep(10);
    expect(lines.filter((l) => l.includes(" INFO  request"))).toHaveLength(0);
    expect(lines.filter((l) => l.includes(" DEBUG request"))).toHaveLength(2);
  });

  test("long random-looking path segments are redacted", () => {
    expect(loggedPath("/api/push/Zx8d9Qm2LpR7vT4kN6wY1aBcDeF3gH5j")).toBe("/api/push/<redacted>");
    expect(loggedPath("/api/monitors/12/history")).toBe("/api/monitors/12/history");
  });
});

describe("headers", () => {
  test("HSTS only over HTTPS (a trusted proxy saying so); never CORS headers", async () => {
    const direct = await testApp();
    const plain = await direct.app.handle(new Request("http://localhost/api/config", { headers: { "x-forwarded-proto": "https", origin: "https://evil.example" } }));
    expect(plain.headers.get("strict-transport-security")).toBeNull(); // not behind a trusted proxy: the header is anyone's
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await direct.app.handle(
      new Request("http://localhost/api/monitors", { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } }),
    );
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();

    const proxied = await testApp({ config: { tokenTtl: "7d", trustProxy: 1, links: { blog: "", video: "", tempMail: "" } } });
    const tls = await proxied.app.handle(new Request("http://localhost/api/config", { headers: { "x-forwarded-proto": "https" } }));
    expect(tls.headers.get("strict-transport-security")).toBe("max-age=63072000");
    expect(tls.headers.get("x-content-type-options")).toBe("nosniff");
    const http = await proxied.app.handle(new Request("http://localhost/api/config", { headers: { "x-forwarded-proto": "http" } }));
    expect(http.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("pathOf", () => {
  test("matches URL's pathname for the forms requests take", async () => {
    const { pathOf } = await import("./limits");
    for (const url of ["http://localhost/api/x?y=1", "http://127.0.0.1:3000/", "http://h/a/b#c", "https://[::1]:8/api/status?x=/y", "http://h/p%2Fq?"]) {
      expect(pathOf(url)).toBe(new URL(url).pathname);
    }
  });
});
