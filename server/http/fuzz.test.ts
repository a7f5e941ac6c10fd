// Fuzz: thousands of malformed requests across every route of the app (taken from its own route table, so a new
// route is fuzzed without anyone remembering to add it). Whatever comes in: no 5xx, the `{ success, message }`
// envelope on every /api reply, no file outside the UI served, and the database exactly as it was.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { testHost } from "../agents/test-fixtures";
import type { Db } from "../db/database";
import { testApp } from "../test-support";

// Routes whose only inputs are the caller and the path: any body is well-formed for them, so a signed-in caller
// legitimately changes the database. They are fuzzed with bad credentials and bad paths only.
const INPUTLESS = new Set(["POST /api/agents/tokens", "POST /api/registration/invites"]);
/** Patches whose every field is optional: a fuzzed object with one well-typed field is a real change. */
const PATCHES = new Set(["PUT /api/auth/sso/settings"]);

const BAD_IDS = ["abc", "0", "-1", "1.5", "1e3", "99999999999999999999", "%00", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "..%2F..%2Fetc%2Fpasswd", "'%20OR%201=1--", "%3Cscript%3E", "999999", "%F0%9F%92%A5", "a".repeat(300), "__proto__", "constructor"];

const huge = "x".repeat(200_000);
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

/** Request bodies: [content-type, raw body]. */
function bodies(): [string, BodyInit][] {
  const json = (v: unknown): [string, BodyInit] => ["application/json", JSON.stringify(v)];
  const values: unknown[] = [
    null,
    0,
    -1,
    1e308,
    true,
    "text",
    [],
    [1, 2, 3],
    {},
    { __proto__: { admin: true } },
    JSON.parse('{"__proto__": {"role": "admin", "isAdmin": true}, "constructor": {"prototype": {"x": 1}}}'),
    { name: huge, url: huge, username: huge, title: huge },
    { name: 42, url: ["http://x"], interval: "5 minutes", active: "yes", id: "1; DROP TABLE users" },
    // SQL and script fragments in text fields, each body with one field no route accepts as sent.
    { name: "'; DROP TABLE monitors; --", url: "javascript:alert(1)", type: "<script>alert(1)</script>", expiresInDays: "soon" },
    { username: "admin' OR '1'='1", password: { $ne: "" }, email: "<img src=x onerror=alert(1)>" },
    { config: { url: "file:///etc/passwd" }, type: "webhook", name: "\u0000\u202e" },
    { monitorIds: ["1", -1, 1.5, null], agentIds: "all", announcement: { severity: "panic", text: 1 } },
    { token: "", name: null, host: "x", samples: [{ time: "yesterday" }] },
    { enabled: "maybe", events: [1, 2], quietHours: { start: 99 } },
    { expiresInDays: -5, role: "root", status: "superuser" },
  ];
  return [
    ...values.map(json),
    ["application/json", deep(5_000)],
    ["application/json", `{"a":${deep(70)}}`],
    ["application/json", '{"name": "x", "url": '],
    ["application/json", "\u0000\u0001"],
    ["application/json", new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])], // bad UTF-8
    ["application/json", new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])], // BOM
    ["text/plain", "name=x&url=http://x"],
    ["application/x-www-form-urlencoded", "username=admin&password=x"],
    ["multipart/form-data; boundary=zz", "--zz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--zz--"],
    ["application/json", "x".repeat(2 * 1024 * 1024)], // over the 1 MiB cap
  ];
}

/** Every row of every table (either engine), each table's rows in a stable order. */
async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [name, table] of Object.entries(db.t)) {
    const rows = (await db.orm.select().from(table as SQLiteTable)) as unknown[];
    out[name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

describe("fuzz", () => {
  test("10 000+ malformed requests: no 5xx, always the envelope, no stray file, the database unchanged", async () => {
    const uiDir = mkdtempSync(join(tmpdir(), "vigil-fuzz-ui-"));
    writeFileSync(join(uiDir, "index.html"), "<!doctype html><title>Vigil</title>");
    const t = await testApp({ uiDir });
    const admin = await t.signUp("alice");
    const user = await t.signUp("bob");
    // Something of each kind to aim at.
    const monitor = await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token: admin.token, body: { name: "api", url: "http://127.0.0.1:9/" } });
    expect(monitor.status).toBe(201);
    const channel = await t.call("POST", "/api/notifications/channels", { token: admin.token, body: { name: "hook", type: "webhook", config: { url: "http://127.0.0.1:9/" } } });
    expect(channel.status).toBe(201);
    const agent = await t.services.agents.register((await t.services.agents.createToken(admin.user.id)).token, "db-1", testHost);
    if (typeof agent === "string") throw new Error(agent);
    await t.services.agents.flush?.();
    // The server's VAPID key, made on first use: the one write a read (GET /api/webpush/key) may cause.
    await t.services.push.publicKey();
    const before = await snapshot(t.db);

    const auths: (string | undefined)[] = [undefined, admin.token, user.token, "Bearer-less", `${admin.token}x`, agent.credential, "vgl_api_not_a_real_token_000000000000000000"];
    const routes = t.app.routes.filter((r) => r.method !== "WS").map((r) => ({ method: r.method === "ALL" ? "GET" : r.method, path: r.path }));
    const failures: string[] = [];
    let sent = 0;

    async function send(method: string, path: string, auth: string | undefined, contentType?: string, body?: BodyInit) {
      const headers: Record<string, string> = {};
      if (auth) headers.authorization = auth.startsWith("Bearer-") ? auth : `Bearer ${auth}`;
      if (contentType) headers["content-type"] = contentType;
      let res: Response;
      try {
        res = await t.app.handle(new Request(`http://localhost${path}`, { method, headers, body: method === "GET" || method === "HEAD" ? undefined : body }));
      } catch (e) {
        failures.push(`${method} ${path}: threw ${e}`);
        return;
      }
      sent++;
      const text = await res.text();
      const where = `${method} ${path} [${contentType ?? "-"}] → ${res.status}`;
      // /healthz answers 503 by design here: the scheduler is not started.
      if (res.status >= 500 && !path.startsWith("/healthz")) failures.push(`${where}: ${text.slice(0, 200)}`);
      if (/root:x:0:0|BEGIN (RSA|EC|OPENSSH) PRIVATE KEY/.test(text)) failures.push(`${where}: served a system file`);
      const real = new URL(`http://localhost${path}`).pathname; // as the server saw it ("/api/../x" is "/x")
      // No envelope by design: badges (SVG), the API docs page (HTML), the OpenAPI document (read as is by tools),
      // single sign-on's browser redirects, downloads (a backup, exports, reports: attachments; the configuration file
      // as YAML) and the configuration file's JSON Schema (read as is by editors).
      const redirect = /^\/api\/auth\/sso\/(start|callback)\/?$/.test(real) && res.status === 302;
      const download =
        res.status === 200 &&
        ((/^\/api\/backup\/?$/.test(real) && res.headers.get("content-type") === "application/octet-stream") ||
          (/^\/api\/config\/export\/?$/.test(real) && res.headers.get("content-type")?.startsWith("text/yaml") === true) ||
          /^\/api\/config\/schema\/?$/.test(real));
      if (real.startsWith("/api/") && res.status !== 304 && !redirect && !download && !real.startsWith("/api/status/badge/") && !/^\/api\/docs(\/json)?\/?$/.test(real)) {
        let parsed: { success?: unknown; message?: unknown } | undefined;
        try {
          parsed = JSON.parse(text);
        } catch {
          failures.push(`${where}: not JSON: ${text.slice(0, 100)}`);
          return;
        }
        const ok = res.status < 400;
        if (parsed?.success !== ok || (!ok && typeof parsed.message !== "string")) failures.push(`${where}: envelope ${text.slice(0, 160)}`);
      }
    }

    const allBodies = bodies();
    // Malformed and unknown credentials are turned away the same way whatever the path and body: each is sent with
    // every fourth bad id and body (the whole set goes with no credentials, with the two users' and the agent's).
    const refused = new Set([auths[3], auths[4], auths[6]]);
    const sample = <T,>(list: T[]) => list.filter((_, i) => i % 4 === 0);
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      const hasParams = route.path.includes(":") || route.path.includes("*");
      const paths = hasParams
        ? BAD_IDS.map((id) => route.path.replace(/:[a-z]+/g, id).replace("*", `nope/${id}`))
        : [route.path];
      for (const [p, path] of paths.entries()) {
        for (const auth of auths) {
          if (refused.has(auth) && p % 4 !== 0) continue;
          if (route.method === "GET" || route.method === "DELETE") {
            await send(route.method, path, auth);
            // DELETE, and odd methods on the same path.
            for (const odd of ["PATCH", "PROPFIND", "FOO"]) await send(odd, path, auth, "application/json", "{}");
            continue;
          }
          // Input-less routes create things for any signed-in caller, patches change what they name: fuzz them only
          // with refused credentials.
          const validAuth = auth === admin.token || auth === user.token;
          if ((INPUTLESS.has(key) || PATCHES.has(key)) && validAuth && !hasParams) continue;
          for (const [type, body] of refused.has(auth) ? sample(allBodies) : allBodies) await send(route.method, path, auth, type, body);
        }
      }
    }
    // Encoded path traversal at the root (the UI's static files) and under /downloads.
    for (const path of ["/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/downloads/..%2f..%2fetc%2fpasswd", "/downloads/%2e%2e/%2e%2e/etc/passwd", "/assets/..%5c..%5cetc%5cpasswd", "/%00", "/api/%2e%2e/%2e%2e/etc/passwd"]) {
      for (const method of ["GET", "HEAD", "POST"]) await send(method, path, undefined, "application/json", "{}");
    }

    expect(failures.slice(0, 20)).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(10_000);
    await t.services.agents.flush?.();
    expect(await snapshot(t.db)).toEqual(before);
    rmSync(uiDir, { recursive: true, force: true });
  }, 300_000);
});
