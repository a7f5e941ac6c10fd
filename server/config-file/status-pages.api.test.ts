// statusPages: through the API (both engines): round trip into an empty instance, apply twice = nothing, the password
// (a secret kept only as a hash), one changed field, prune only managed, drift, invalid entries with line and field.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { parse } from "yaml";
import { counts, setup, type Instance } from "./test-helpers";

const FILE = `version: 1
monitors:
  - key: shop
    name: Shop
    url: http://127.0.0.1:9/
    active: false
  - key: api
    name: API
    url: http://127.0.0.1:9/api
    active: false
statusPages:
  - slug: shop-status
    title: Shop status
    groups:
      - name: Web
        monitors: [shop, api]
  - slug: team
    title: Team
    visibility: password
    password: \${PAGE_PASSWORD}
    customDomain: status.example.com
    groups:
      - monitors: [api]
`;
const env = { PAGE_PASSWORD: "correct horse" };

async function pages(s: Instance) {
  const monitors = new Map(((await s.get("/api/monitors")).monitors as any[]).map((m) => [m.id, m.name]));
  return ((await s.get("/api/status-pages")).pages as any[])
    .map(({ id: _i, url: _u, createdAt: _c, updatedAt: _up, feedKey: _f, feedLinks: _fl, ...p }) => ({
      ...p,
      groups: p.groups.map((g: any) => ({ name: g.name, items: g.items.map((i: any) => monitors.get(i.id)) })),
    }))
    .sort((a, b) => a.slug.localeCompare(b.slug));
}
const pageRow = async (s: Instance, slug: string) => (await s.db.orm.select().from(s.db.t.statusPage).where(eq(s.db.t.statusPage.slug, slug)))[0]!;

describe("configuration as code: status pages", () => {
  test("apply creates the pages; again writes nothing and keeps the password's hash; export → empty instance is the same", async () => {
    const s = await setup();
    const applied = await s.post("/api/config/apply", { yaml: FILE, env });
    expect(applied.status).toBe(200);
    expect(applied.body.plan.counts).toEqual({ create: 4, change: 0, delete: 0, unchanged: 0 });
    const created = applied.body.plan.items.find((i: any) => i.key === "team");
    expect(created.changes).toContainEqual({ path: "password", secret: true });
    expect(JSON.stringify(applied.body)).not.toContain("correct horse");
    const list = await pages(s);
    expect(list.find((p) => p.slug === "shop-status")).toMatchObject({ title: "Shop status", visibility: "public", groups: [{ name: "Web", items: ["Shop", "API"] }] });
    expect(list.find((p) => p.slug === "team")).toMatchObject({ visibility: "password", hasPassword: true, customDomain: "status.example.com", groups: [{ name: "", items: ["API"] }] });
    const unlocked = await s.post("/api/status/pages/team/unlock", { password: "correct horse" });
    expect(unlocked.status).toBe(200);

    const version = (await pageRow(s, "team")).passwordVersion;
    const before = await counts(s);
    const again = await s.post("/api/config/apply", { yaml: FILE, env });
    expect(again.body).toMatchObject({ written: false, plan: { counts: { create: 0, change: 0, delete: 0, unchanged: 4 } } });
    expect(await counts(s)).toEqual(before);
    expect((await pageRow(s, "team")).passwordVersion).toBe(version);
    expect((await s.managed()).filter((m) => m.drifted)).toEqual([]);

    // The password is kept only hashed: even withSecrets exports a reference.
    const exported = await s.text("/api/config/export?withSecrets=true");
    expect(exported.text).not.toContain("correct horse");
    expect(parse(exported.text).statusPages).toEqual([
      { slug: "shop-status", title: "Shop status", groups: [{ name: "Web", monitors: ["shop", "api"] }] },
      { slug: "team", title: "Team", customDomain: "status.example.com", visibility: "password", password: "${VIGIL_STATUS_PAGE_TEAM_PASSWORD}", groups: [{ monitors: ["api"] }] },
    ]);
    const other = await setup();
    expect((await other.post("/api/config/apply", { yaml: exported.text, env: { VIGIL_STATUS_PAGE_TEAM_PASSWORD: "correct horse" } })).status).toBe(200);
    expect(await pages(other)).toEqual(await pages(s));
    expect((await other.text("/api/config/export?withSecrets=true")).text).toBe(exported.text);
  });

  test("one changed field is one change; a new password is only said to change and signs visitors out", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    const plan = await s.post("/api/config/plan", { yaml: FILE.replace("title: Team", "title: Our team"), env });
    expect(plan.body.plan.items).toEqual([{ kind: "status_page", key: "team", name: "Our team", action: "change", objectId: expect.any(String), drift: false, adopt: false, changes: [{ path: "title", old: "Team", new: "Our team" }] }]);
    const version = (await pageRow(s, "team")).passwordVersion;
    const secret = await s.post("/api/config/apply", { yaml: FILE, env: { PAGE_PASSWORD: "battery staple" } });
    expect(secret.body.plan.items[0].changes).toEqual([{ path: "password", secret: true }]);
    expect((await pageRow(s, "team")).passwordVersion).toBe(version + 1);
    expect((await s.post("/api/status/pages/team/unlock", { password: "battery staple" })).status).toBe(200);
    expect((await s.post("/api/config/plan", { yaml: FILE, env: { PAGE_PASSWORD: "battery staple" } })).body.plan.items).toEqual([]);
  });

  test("prune deletes only managed pages; the default page is never deleted", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE.replace("slug: shop-status", "slug: default"), env });
    const made = await s.post("/api/status-pages", { slug: "by-hand", title: "By hand", description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups: [] });
    expect(made.status).toBe(201);
    const onlyMonitors = FILE.slice(0, FILE.indexOf("statusPages:"));
    const pruned = await s.post("/api/config/apply", { yaml: onlyMonitors, env, prune: true });
    expect(pruned.body.plan.items.map((i: any) => `${i.action} ${i.key}`).sort()).toEqual(["delete team"]);
    expect((await pages(s)).map((p) => p.slug)).toEqual(["by-hand", "default"]);
    expect((await s.managed()).filter((m) => m.kind === "status_page")).toEqual([]);
  });

  test("drift: a page edited in the UI is drifted; apply puts it back and keeps what the file does not hold", async () => {
    const s = await setup();
    await s.post("/api/config/apply", { yaml: FILE, env });
    const page = (await s.managed()).find((m) => m.key === "shop-status")!;
    const current = (await s.get(`/api/status-pages/${page.objectId}`)).page;
    const saved = await s.call<any>("PUT", `/api/status-pages/${page.objectId}`, { token: s.admin.token, body: { ...current, title: "Edited", announcement: { severity: "info", text: "Deploying" } } });
    expect(saved.status).toBe(200);
    expect((await s.managed()).find((m) => m.key === "shop-status")!.drifted).toBe(true);
    const plan = await s.post("/api/config/plan", { yaml: FILE, env });
    expect(plan.body.plan.items).toMatchObject([{ key: "shop-status", drift: true, changes: [{ path: "title", old: "Edited", new: "Shop status" }] }]);
    await s.post("/api/config/apply", { yaml: FILE, env });
    const after = (await s.get(`/api/status-pages/${page.objectId}`)).page;
    expect(after).toMatchObject({ title: "Shop status", announcement: { severity: "info", text: "Deploying" } });
    expect((await s.managed()).filter((m) => m.drifted)).toEqual([]);
  });

  const invalid: [string, string, RegExp][] = [
    ["a monitor key that is not in the file", FILE.replace("monitors: [shop, api]", "monitors: [shop, cart]"), /^line 16, statusPages\[0\]\.groups\[0\]\.monitors\[1\]: no monitor or group has the key "cart"/],
    ["a reserved slug", FILE.replace("slug: team", "slug: config"), /^line 17, statusPages\[1\]\.slug: "config" is reserved/],
    ["a password too short", FILE, /^line 20, statusPages\[1\]\.password: The password must be at least 6 characters/],
    ["a password page without a password", FILE.replace("    password: ${PAGE_PASSWORD}\n", ""), /^line 17, statusPages\[1\]\.password: A password-protected page needs a password/],
    ["a bad domain", FILE.replace("status.example.com", "not a host"), /^line 21, statusPages\[1\]\.customDomain: The domain must be a host name/],
  ];
  for (const [what, yaml, message] of invalid) {
    test(`refused whole, nothing written: ${what}`, async () => {
      const s = await setup();
      const before = await counts(s);
      const res = await s.post("/api/config/apply", { yaml, env: what.startsWith("a password too") ? { PAGE_PASSWORD: "abc" } : env });
      expect(res.status).toBe(400);
      expect(res.body.message.replace("The configuration file is invalid: ", "")).toMatch(message);
      expect(await counts(s)).toEqual(before);
    });
  }
});
