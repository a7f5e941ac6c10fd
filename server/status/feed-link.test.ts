import { describe, expect, test } from "bun:test";
import { testApp } from "../test-support";
import type { StatusPageSettings } from "./public";

// Feeds in the instance's message language and zone, and the secret feed link of a page that is not public: feed
// readers can neither sign in nor type a password, so admins and editors hand them a link that carries a key.

async function setup() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const shop = (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name: "Shop", url: "http://127.0.0.1:9/", active: false } })).body.monitor.id;
  const page = async (slug: string, over: Record<string, unknown> = {}) =>
    (await t.call<{ page: StatusPageSettings }>("POST", "/api/status-pages", {
      token,
      body: { slug, title: slug, description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups: [{ name: "", items: [{ type: "monitor", id: shop }] }], ...over },
    })).body.page;
  const language = async (language: "zh-CN" | "en-US") => {
    const settings = await t.services.notifications.store.getSettings();
    await t.services.notifications.store.saveSettings({ ...settings, language, timeZone: "Asia/Shanghai" });
  };
  const get = (path: string, headers: Record<string, string> = {}) => t.app.handle(new Request(`http://localhost${path}`, { headers }));
  return { ...t, token, shop, page, language, get };
}

describe("status page feeds", () => {
  test("speak the instance's language with readable times in its zone; machine dates stay ISO / RFC 822", async () => {
    const t = await setup();
    await t.page("shop");
    await t.call("POST", "/api/incidents", { token: t.token, body: { title: "Checkout errors", impact: "major", monitorIds: [t.shop], update: { state: "investigating", message: "Looking into it." } } });
    await t.call("POST", "/api/maintenance/start", { token: t.token, body: { title: "DB upgrade", monitorIds: [t.shop], minutes: 30 } });
    const readable = "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} \\(UTC\\+08:00\\)";

    await t.language("zh-CN");
    const atom = await (await t.get("/api/status/pages/shop/feed.atom")).text();
    expect(atom).toContain('xml:lang="zh-CN"');
    expect(atom).toContain("<title>[调查中] Checkout errors</title>");
    expect(atom).toContain("<title>[维护：进行中] DB upgrade</title>");
    expect(atom).toMatch(new RegExp(`${readable} 调查中：Looking into it.\\n\\n影响：Shop`));
    expect(atom).toMatch(new RegExp(`${readable} – ${readable}`));
    expect(atom).not.toMatch(/investigating|Affects|maintenance,/);
    expect(atom).toMatch(/<updated>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z<\/updated>/);
    const rss = await (await t.get("/api/status/pages/shop/feed.rss")).text();
    expect(rss).toContain("<language>zh-cn</language>");
    expect(rss).toContain("<title>[调查中] Checkout errors</title>");
    expect(rss).toMatch(new RegExp(`<description>${readable} 调查中：Looking into it.&lt;br&gt;\\n&lt;br&gt;\\n影响：Shop</description>`));
    expect(rss).toMatch(/<pubDate>\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT<\/pubDate>/);

    await t.language("en-US");
    const english = await (await t.get("/api/status/pages/shop/feed.atom")).text();
    expect(english).toContain("<title>[Investigating] Checkout errors</title>");
    expect(english).toContain("<title>[Maintenance: In progress] DB upgrade</title>");
    expect(english).toMatch(new RegExp(`${readable} Investigating: Looking into it.\\n\\nAffects: Shop`));
  });

  test("a password or private page's secret feed link: works, is replaced and turned off, never opens the page itself", async () => {
    const t = await setup();
    const locked = await t.page("partners", { visibility: "password", password: "open sesame" });
    expect([locked.feedKey, locked.feedLinks]).toEqual([null, null]);
    expect((await t.get("/api/status/pages/partners/feed.atom")).status).toBe(401);

    const made = await t.call<{ page: StatusPageSettings }>("POST", `/api/status-pages/${locked.id}/feed-key`, { token: t.token });
    expect(made.status).toBe(200);
    const key = made.body.page.feedKey!;
    expect(key.length).toBeGreaterThanOrEqual(32);
    expect(made.body.page.feedLinks).toEqual({ atom: `http://localhost/api/status/pages/partners/feed.atom?key=${key}`, rss: `http://localhost/api/status/pages/partners/feed.rss?key=${key}` });
    // Admins and editors can copy it again later.
    expect((await t.call<{ page: StatusPageSettings }>("GET", `/api/status-pages/${locked.id}`, { token: t.token })).body.page.feedKey).toBe(key);

    for (const feed of ["feed.atom", "feed.rss"]) {
      const res = await t.get(`/api/status/pages/partners/${feed}?key=${key}`);
      expect([res.status, res.headers.get("cache-control")]).toEqual([200, "private, no-store"]);
      // The last character changed (to one it is not: a key ending in "x" made this pass by chance once in 64).
      const wrong = await t.get(`/api/status/pages/partners/${feed}?key=${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`);
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as { code: string }).code).toBe("STATUS_FEED_KEY_INVALID");
    }
    // The feed names its own address with the key, for readers that follow the self link.
    expect(await (await t.get(`/api/status/pages/partners/feed.atom?key=${key}`)).text()).toContain(`rel="self" href="http://localhost/api/status/pages/partners/feed.atom?key=${key}"`);
    // The key opens the feeds only: not the page, its summary or its unlock.
    for (const path of ["", "/summary.json"]) expect((await t.get(`/api/status/pages/partners${path}?key=${key}`)).status).toBe(401);

    // A new key revokes the old link.
    const renewed = (await t.call<{ page: StatusPageSettings }>("POST", `/api/status-pages/${locked.id}/feed-key`, { token: t.token })).body.page.feedKey!;
    expect(renewed).not.toBe(key);
    expect((await t.get(`/api/status/pages/partners/feed.rss?key=${key}`)).status).toBe(401);
    expect((await t.get(`/api/status/pages/partners/feed.rss?key=${renewed}`)).status).toBe(200);
    // Another page's key opens nothing here.
    const team = await t.page("team", { visibility: "private" });
    const teamKey = (await t.call<{ page: StatusPageSettings }>("POST", `/api/status-pages/${team.id}/feed-key`, { token: t.token })).body.page.feedKey!;
    expect((await t.get(`/api/status/pages/team/feed.atom?key=${teamKey}`)).status).toBe(200);
    expect((await t.get(`/api/status/pages/partners/feed.atom?key=${teamKey}`)).status).toBe(401);

    // Turned off: the link stops working.
    const off = await t.call<{ page: StatusPageSettings }>("DELETE", `/api/status-pages/${locked.id}/feed-key`, { token: t.token });
    expect([off.status, off.body.page.feedKey]).toEqual([200, null]);
    expect((await t.get(`/api/status/pages/partners/feed.rss?key=${renewed}`)).status).toBe(401);

    // A public page needs none; making a page public drops its key, so locking it again brings no old link back.
    const open = await t.page("open");
    const refused = await t.call("POST", `/api/status-pages/${open.id}/feed-key`, { token: t.token });
    expect([refused.status, refused.body.code]).toEqual([400, "STATUS_PAGE_PUBLIC"]);
    const body = { slug: "team", title: "team", description: "", logo: null, customDomain: null, announcement: null, groups: [] };
    await t.call("PUT", `/api/status-pages/${team.id}`, { token: t.token, body: { ...body, visibility: "public" } });
    const relocked = await t.call<{ page: StatusPageSettings }>("PUT", `/api/status-pages/${team.id}`, { token: t.token, body: { ...body, visibility: "private" } });
    expect(relocked.body.page.feedKey).toBeNull();
    expect((await t.get(`/api/status/pages/team/feed.atom?key=${teamKey}`)).status).toBe(401);
    expect((await t.call("POST", "/api/status-pages/999/feed-key", { token: t.token })).status).toBe(404);
  });

  test("viewers see no feed key and cannot make one", async () => {
    const t = await setup();
    const locked = await t.page("partners", { visibility: "password", password: "open sesame" });
    const key = (await t.call<{ page: StatusPageSettings }>("POST", `/api/status-pages/${locked.id}/feed-key`, { token: t.token })).body.page.feedKey!;
    const vera = await t.signUp("vera");
    expect((await t.call("PUT", `/api/users/${vera.user.id}`, { token: t.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
    const viewer = (await t.login("vera")).token;
    const one = await t.call<{ page: StatusPageSettings }>("GET", `/api/status-pages/${locked.id}`, { token: viewer });
    expect([one.status, one.body.page.feedKey, one.body.page.feedLinks]).toEqual([200, null, null]);
    const list = await t.call<{ pages: StatusPageSettings[] }>("GET", "/api/status-pages", { token: viewer });
    expect(JSON.stringify(list.body)).not.toContain(key);
    for (const method of ["POST", "DELETE"]) expect((await t.call(method, `/api/status-pages/${locked.id}/feed-key`, { token: viewer })).status).toBe(403);
    expect((await t.get(`/api/status/pages/partners/feed.atom?key=${key}`)).status).toBe(200);
  });
});
