// Configuration as code through the API (both engines: server/db/test-db.ts): export → apply into an empty instance
// gives the same objects; applying twice writes nothing; one changed field is one change; prune deletes only managed
// objects; drift; invalid files refused whole with line and field; secrets; who may call what.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { testApp } from "../test-support";
import { configJsonSchema } from "./schema";

type T = Awaited<ReturnType<typeof testApp>>;

const FILE = `version: 1
tags:
  - key: prod
    name: prod
    color: "#FF0000"
groups:
  - key: web
    name: Web
monitors:
  - key: shop
    name: Shop
    url: http://127.0.0.1:9/
    intervalSeconds: 60
    tags: [prod]
    group: web
  - key: db
    name: DB
    type: redis
    active: false
    settings:
      host: 127.0.0.1
      password: \${REDIS_PASSWORD}
  - key: api
    name: API
    type: tcp
    host: 127.0.0.1
    port: 9
    dependsOn: [shop]
`;

async function setup() {
  const t = await testApp();
  const admin = await t.signUp("alice");
  const post = (path: string, body: unknown, token = admin.token) => t.call<any>("POST", path, { token, body });
  const text = async (path: string, token = admin.token) => {
    const res = await t.app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }));
    return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
  };
  return { ...t, admin, post, text };
}

const env = { REDIS_PASSWORD: "hunter2-secret" };
const rows = async (t: T) => ({
  monitors: (await t.db.orm.select().from(t.db.t.monitors)).length,
  links: (await t.db.orm.select().from(t.db.t.configLinks)).length,
  tags: (await t.db.orm.select().from(t.db.t.tagStyles)).length,
});
/** Every monitor as the API shows it, ids replaced by names, for comparing two instances. */
async function snapshot(t: T, token: string) {
  const list = (await t.call<any>("GET", "/api/monitors", { token })).body.monitors as any[];
  const nameOf = new Map(list.map((m) => [m.id, m.name]));
  return list
    .map(({ id: _i, pushToken: _p, status: _s, createdAt: _c, updatedAt: _u, statusChangedAt: _sc, lastCheckedAt: _l, uptime24h: _up, target: _tg, ...m }) => ({
      ...m,
      parentId: m.parentId === null ? null : nameOf.get(m.parentId),
      dependsOn: (m.dependsOn as number[]).map((d) => nameOf.get(d)),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

describe("configuration as code", () => {
  test("apply creates; the same file again plans nothing and writes nothing; export → apply into an empty instance gives the same objects", async () => {
    const s = await setup();
    const plan = await s.post("/api/config/plan", { yaml: FILE, env });
    expect(plan.status).toBe(200);
    expect(plan.body.plan.counts).toEqual({ create: 5, change: 0, delete: 0, unchanged: 0 });
    const applied = await s.post("/api/config/apply", { yaml: FILE, env });
    expect(applied.status).toBe(200);
    expect(applied.body.written).toBe(true);
    const monitors = (await s.call<any>("GET", "/api/monitors", { token: s.admin.token })).body.monitors as any[];
    const shop = monitors.find((m) => m.name === "Shop");
    expect(shop.parentId).toBe(monitors.find((m) => m.name === "Web").id);
    expect(monitors.find((m) => m.name === "API").dependsOn).toEqual([shop.id]);

    const before = await rows(s);
    const again = await s.post("/api/config/apply", { yaml: FILE, env });
    expect(again.body.plan.counts).toEqual({ create: 0, change: 0, delete: 0, unchanged: 5 });
    expect(again.body.written).toBe(false);
    expect(await rows(s)).toEqual(before);

    const exported = await s.text("/api/config/export?withSecrets=true");
    expect(exported.status).toBe(200);
    expect(exported.type).toBe("text/yaml; charset=utf-8");
    const other = await setup();
    const into = await other.post("/api/config/apply", { yaml: exported.text });
    expect(into.status).toBe(200);
    expect(await snapshot(other, other.admin.token)).toEqual(await snapshot(s, s.admin.token));
    // The export of the copy is the same file.
    expect((await other.text("/api/config/export?withSecrets=true")).text).toBe(exported.text);
  });

  test("export leaves defaults out and writes secrets as ${ENV} references unless asked; applying the export to the same instance adopts", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    await s.post("/api/monitors", { name: "Made in the UI", url: "http://127.0.0.1:9/x", active: false });
    const { text } = await s.text("/api/config/export");
    expect(text).not.toContain("hunter2-secret");
    expect(text).toContain("password: ${VIGIL_MONITOR_DB_PASSWORD}");
    const file = parse(text);
    expect(file.monitors.find((m: any) => m.key === "shop")).toEqual({ key: "shop", name: "Shop", type: "http", url: "http://127.0.0.1:9/", intervalSeconds: 60, tags: ["prod"], group: "web" });
    const plan = await s.post("/api/config/plan", { yaml: text, env: { VIGIL_MONITOR_DB_PASSWORD: "hunter2-secret" } });
    expect(plan.body.plan.counts).toEqual({ create: 0, change: 1, delete: 0, unchanged: 5 });
    expect(plan.body.plan.items[0]).toMatchObject({ key: "made-in-the-ui", action: "change", adopt: true, changes: [] });
    await s.post("/api/config/apply", { yaml: text, env: { VIGIL_MONITOR_DB_PASSWORD: "hunter2-secret" } });
    const managed = (await s.call<any>("GET", "/api/config/managed", { token: s.admin.token })).body.managed as any[];
    expect(managed.length).toBe(6);
    expect(managed.every((m) => m.drifted === false)).toBe(true);
  });

  test("one changed field is one change; a changed secret shows as such; prune deletes only managed objects", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    const changed = FILE.replace("intervalSeconds: 60", "intervalSeconds: 120");
    const plan = await s.post("/api/config/plan", { yaml: changed, env });
    expect(plan.body.plan.items).toEqual([{ kind: "monitor", key: "shop", name: "Shop", action: "change", objectId: expect.any(String), drift: false, adopt: false, changes: [{ path: "intervalSeconds", old: 60, new: 120 }] }]);
    const secret = await s.post("/api/config/plan", { yaml: FILE, env: { REDIS_PASSWORD: "another" } });
    expect(secret.body.plan.items[0].changes).toEqual([{ path: "settings.password", secret: true }]);
    expect(JSON.stringify(secret.body)).not.toContain("another");

    const unmanaged = await s.post("/api/monitors", { name: "Not in any file", url: "http://127.0.0.1:9/y", active: false });
    const smaller = FILE.slice(0, FILE.indexOf("  - key: api"));
    const kept = await s.post("/api/config/plan", { yaml: smaller, env });
    expect(kept.body.plan.counts.delete).toBe(0);
    expect(kept.body.plan.notInFile).toEqual([{ kind: "monitor", key: "api", name: "API" }]);
    const pruned = await s.post("/api/config/apply", { yaml: smaller, env, prune: true });
    expect(pruned.body.plan.items).toMatchObject([{ kind: "monitor", key: "api", action: "delete" }]);
    const names = ((await s.call<any>("GET", "/api/monitors", { token: s.admin.token })).body.monitors as any[]).map((m) => m.name).sort();
    expect(names).toEqual(["DB", "Not in any file", "Shop", "Web"]);
    expect(unmanaged.status).toBe(201);
  });

  test("drift: an edit through the API after an apply shows in plan and managed; apply puts the file's version back", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    const shop = ((await s.call<any>("GET", "/api/monitors", { token: s.admin.token })).body.monitors as any[]).find((m) => m.name === "Shop");
    await s.call("PUT", `/api/monitors/${shop.id}`, { token: s.admin.token, body: { retries: 4 } });
    const managed = (await s.call<any>("GET", "/api/config/managed", { token: s.admin.token })).body.managed as any[];
    expect(managed.find((m) => m.key === "shop")).toEqual({ kind: "monitor", key: "shop", objectId: String(shop.id), drifted: true });
    const plan = await s.post("/api/config/plan", { yaml: FILE, env });
    expect(plan.body.plan.items).toMatchObject([{ key: "shop", action: "change", drift: true, changes: [{ path: "retries", old: 4, new: 1 }] }]);
    await s.post("/api/config/apply", { yaml: FILE, env });
    expect((await s.post("/api/config/plan", { yaml: FILE, env })).body.plan.items).toEqual([]);
  });

  const invalid: [string, string, RegExp][] = [
    ["bad YAML", "version: 1\nmonitors:\n  - key: a\n    name: [unclosed\n", /^line \d+/],
    ["an unknown field", FILE.replace("    intervalSeconds: 60\n", "    intervalSeconds: 60\n    colour: red\n"), /^line 14, monitors\[0\]\.colour: unknown field "colour"/],
    ["a wrong type", FILE.replace("intervalSeconds: 60", "intervalSeconds: often"), /^line 13, monitors\[0\]\.intervalSeconds: intervalSeconds must be a whole number of seconds/],
    ["a value the API refuses", FILE.replace("intervalSeconds: 60", "intervalSeconds: 30\n    timeout: 45"), /^line 14, monitors\[0\]\.timeout: Timeout must be shorter than the interval/],
    ["a missing reference", FILE.replace("group: web", "group: nowhere"), /^line 15, monitors\[0\]\.group: no group has the key "nowhere"/],
    ["a duplicate key", FILE.replace("key: api", "key: shop"), /^line 23, monitors\[2\]\.key: duplicate key "shop"/],
    ["a missing variable", FILE.replace("${REDIS_PASSWORD}", "${NOT_SET_ANYWHERE}"), /^line 22, monitors\[1\]\.settings\.password: the environment variable NOT_SET_ANYWHERE is not set/],
  ];
  for (const [what, yaml, message] of invalid) {
    test(`refused whole, nothing written: ${what}`, async () => {
      const s = await setup();
      const before = await rows(s);
      const res = await s.post("/api/config/apply", { yaml, env });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("CONFIG_INVALID");
      expect(res.body.problems[0].line).toBeGreaterThan(0);
      expect(res.body.message.replace("The configuration file is invalid: ", "")).toMatch(message);
      expect(await rows(s)).toEqual(before);
    });
  }

  test("who may call: viewers and editors 403, an admin's API token works, withSecrets refuses tokens; the schema is public and matches docs/", async () => {
    const s = await setup();
    const editor = await s.signUp("eddie");
    const viewer = await s.signUp("vivian");
    for (const u of [editor, viewer]) await s.call("PUT", `/api/users/${u.user.id}`, { token: s.admin.token, body: { role: u === editor ? "editor" : "viewer" } });
    for (const who of [editor, viewer]) {
      expect((await s.post("/api/config/plan", { yaml: FILE, env }, who.token)).status).toBe(403);
      expect((await s.post("/api/config/apply", { yaml: FILE, env }, who.token)).status).toBe(403);
      expect((await s.text("/api/config/export", who.token)).status).toBe(403);
    }
    const token = (await s.call<any>("POST", "/api/tokens", { token: s.admin.token, body: { name: "ci", scope: "write" } })).body.secret as string;
    expect((await s.post("/api/config/apply", { yaml: FILE, env }, token)).status).toBe(200);
    expect((await s.text("/api/config/export", token)).status).toBe(200);
    expect((await s.text("/api/config/export?withSecrets=true", token)).status).toBe(403);
    const schema = await s.call<any>("GET", "/api/config/schema");
    expect(schema.status).toBe(200);
    expect(schema.body).toEqual(JSON.parse(JSON.stringify(configJsonSchema())));
    // docs/config-schema.json is written by `bun scripts/config-schema.ts`.
    expect(JSON.parse(readFileSync(join(import.meta.dir, "../../docs/config-schema.json"), "utf8"))).toEqual(schema.body);
  });
});
