import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testApp } from "../test-support";
import type { PublicStatusPage, StatusPageSettings } from "./public";

// Several status pages: addresses, groups, visibility (password, signed-in only), custom domains, feeds and the JSON
// summary — and nothing private on any of them.

const SECRET = "s3cr3t-planted-value";

async function setup() {
  const t = await testApp();
  const { token } = await t.signUp("alice");
  const monitor = async (name: string, extra: Record<string, unknown> = {}) =>
    (await t.call<{ monitor: { id: number } }>("POST", "/api/monitors", { token, body: { name, url: "http://127.0.0.1:9/", active: false, ...extra } })).body.monitor.id;
  const page = (body: Record<string, unknown>) =>
    t.call<{ page: StatusPageSettings }>("POST", "/api/status-pages", {
      token,
      body: { title: "", description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups: [], ...body },
    });
  const view = (slug: string, headers: Record<string, string> = {}) => t.call<{ page: PublicStatusPage }>("GET", `/api/status/pages/${slug}`, { headers });
  return { ...t, token, monitor, page, view };
}

describe("status pages", () => {
  test("a second page with its own items in groups, beside the default one", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    const api = await t.monitor("API");
    const db = await t.monitor("Database");
    await t.call("PUT", "/api/status/config", { token: t.token, body: { title: "Acme", description: "", monitorIds: [db], agentIds: [], announcement: null } });
    const res = await t.page({ slug: "Shop-Customers", title: "Shop status", groups: [{ name: "Storefront", items: [{ type: "monitor", id: shop }] }, { name: "Backend", items: [{ type: "monitor", id: api }] }] });
    expect(res.status).toBe(201);
    expect(res.body.page).toMatchObject({ slug: "shop-customers", title: "Shop status", isDefault: false, visibility: "public", hasPassword: false, url: "http://localhost/status/shop-customers" });
    const list = (await t.call<{ pages: StatusPageSettings[] }>("GET", "/api/status-pages", { token: t.token })).body.pages;
    expect(list.map((p) => [p.id, p.slug, p.isDefault])).toEqual([[1, "default", true], [res.body.page.id, "shop-customers", false]]);

    const shopPage = (await t.view("shop-customers")).body.page;
    expect(shopPage.title).toBe("Shop status");
    expect(shopPage.monitors.map((m) => m.name)).toEqual(["Shop", "API"]);
    expect(shopPage.groups).toEqual([{ name: "Storefront", items: [{ type: "monitor", id: shop }] }, { name: "Backend", items: [{ type: "monitor", id: api }] }]);
    const main = (await t.call<{ page: PublicStatusPage }>("GET", "/api/status")).body.page;
    expect(main.monitors.map((m) => m.name)).toEqual(["Database"]);
    expect(main.groups).toEqual([]);
    // The default page answers to its slug too; an unknown one is 404.
    expect((await t.view("default")).body.page.title).toBe("Acme");
    expect((await t.view("nope")).status).toBe(404);

    // A deleted monitor leaves the page; the page can be deleted, the default one cannot.
    await t.call("DELETE", `/api/monitors/${shop}`, { token: t.token });
    expect((await t.view("shop-customers")).body.page.monitors.map((m) => m.name)).toEqual(["API"]);
    expect((await t.call("DELETE", `/api/status-pages/${res.body.page.id}`, { token: t.token })).status).toBe(200);
    expect((await t.view("shop-customers")).status).toBe(404);
    const keep = await t.call("DELETE", "/api/status-pages/1", { token: t.token });
    expect([keep.status, keep.body.code]).toEqual([409, "STATUS_PAGE_DEFAULT"]);
  });

  test("bad input: addresses, domains, logos, passwords, items", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop");
    expect((await t.page({ slug: "acme", customDomain: "status.acme.example" })).status).toBe(201);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ slug: "acme" }, 409, "STATUS_PAGE_SLUG_TAKEN"],
      [{ slug: "other", customDomain: "STATUS.acme.example" }, 409, "STATUS_PAGE_DOMAIN_TAKEN"],
      [{ slug: "-bad" }, 400, "STATUS_PAGE_SLUG_INVALID"],
      [{ slug: "a b" }, 400, "STATUS_PAGE_SLUG_INVALID"],
      [{ slug: "config" }, 400, "STATUS_PAGE_SLUG_RESERVED"],
      [{ slug: "x", customDomain: "not a host" }, 400, "STATUS_PAGE_DOMAIN_INVALID"],
      [{ slug: "x", logo: "javascript:alert(1)" }, 400, "STATUS_PAGE_LOGO_INVALID"],
      [{ slug: "x", logo: "data:text/html;base64,PHNjcmlwdD4=" }, 400, "STATUS_PAGE_LOGO_INVALID"],
      [{ slug: "x", visibility: "password" }, 400, "STATUS_PAGE_PASSWORD_REQUIRED"],
      [{ slug: "x", visibility: "password", password: "123" }, 400, "STATUS_PAGE_PASSWORD_SHORT"],
      [{ slug: "x", visibility: "secret" }, 400, "VALIDATION"],
      [{ slug: "x", groups: [{ name: "", items: [{ type: "monitor", id: 999 }] }] }, 400, "MONITOR_UNKNOWN"],
      [{ slug: "x", groups: [{ name: "a", items: [{ type: "monitor", id: shop }] }, { name: "b", items: [{ type: "monitor", id: shop }] }] }, 400, "STATUS_PAGE_DUPLICATE_ITEM"],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.page(body);
      expect([res.status, res.body.code, typeof res.body.message]).toEqual([status, code, "string"]);
    }
    expect((await t.page({ slug: "logo", logo: "data:image/png;base64,iVBORw0KGgo=" })).status).toBe(201);
    expect((await t.page({ slug: "linked-logo", logo: "https://cdn.example.com/logo.svg" })).body.page.logo).toBe("https://cdn.example.com/logo.svg");
    expect((await t.call("PUT", "/api/status-pages/999", { token: t.token, body: { slug: "zz", title: "", description: "", logo: null, customDomain: null, visibility: "public", announcement: null, groups: [] } })).status).toBe(404);
    expect((await t.call("GET", "/api/status-pages")).status).toBe(401);
  });

  test("a password page: refused without it, unlocked by it, locked again by a new one; signed-in users see it", async () => {
    const t = await setup();
    const created = (await t.page({ slug: "partners", title: "Partners", visibility: "password", password: "open sesame" })).body.page;
    expect(created.hasPassword).toBe(true);
    const refused = await t.view("partners");
    expect([refused.status, refused.body.code, JSON.stringify(refused.body).includes("Partners")]).toEqual([401, "STATUS_PAGE_PASSWORD", false]);
    const wrong = await t.call("POST", "/api/status/pages/partners/unlock", { body: { password: "guess" } });
    expect([wrong.status, wrong.body.code]).toEqual([401, "STATUS_PAGE_WRONG_PASSWORD"]);
    const unlocked = await t.call<{ token: string }>("POST", "/api/status/pages/partners/unlock", { body: { password: "open sesame" } });
    expect(unlocked.status).toBe(200);
    const seen = await t.view("partners", { "x-status-token": unlocked.body.token });
    expect([seen.status, seen.body.page?.title, seen.headers.get("cache-control")]).toEqual([200, "Partners", "private, no-store"]);
    expect((await t.call("GET", `/api/status/pages/partners/feed.atom?token=${unlocked.body.token}`)).status).toBe(200);
    // A signed-in user needs no password.
    expect((await t.view("partners", { authorization: `Bearer ${t.token}` })).status).toBe(200);
    // A new password ends the tokens of the old one.
    await t.call("PUT", `/api/status-pages/${created.id}`, { token: t.token, body: { slug: "partners", title: "Partners", description: "", logo: null, customDomain: null, visibility: "password", password: "new secret", announcement: null, groups: [] } });
    expect((await t.view("partners", { "x-status-token": unlocked.body.token })).status).toBe(401);
    // Guessing is limited per address.
    for (let i = 0; i < 10; i++) await t.call("POST", "/api/status/pages/partners/unlock", { body: { password: `guess ${i}` } });
    const limited = await t.call("POST", "/api/status/pages/partners/unlock", { body: { password: "new secret" } });
    expect([limited.status, limited.body.code]).toEqual([429, "TOO_MANY_ATTEMPTS"]);
    // The hash never leaves the server.
    const settings = JSON.stringify((await t.call("GET", "/api/status-pages", { token: t.token })).body);
    const [row] = await t.db.rows<{ password_hash: string }>(sql`SELECT password_hash FROM status_page WHERE slug = 'partners'`);
    expect(settings).not.toContain(row.password_hash);
    expect(settings).not.toContain("new secret");
    // Two password hashes and a dozen checks of them (memory-hard on purpose): seconds on a busy 2-core machine.
  }, 30_000);

  test("a private page is for signed-in users only", async () => {
    const t = await setup();
    await t.page({ slug: "team", title: "Team", visibility: "private" });
    const refused = await t.view("team");
    expect([refused.status, refused.body.code]).toEqual([401, "STATUS_PAGE_PRIVATE"]);
    expect((await t.call("POST", "/api/status/pages/team/unlock", { body: { password: "x" } })).body.code).toBe("STATUS_PAGE_NOT_LOCKED");
    expect((await t.view("team", { authorization: `Bearer ${t.token}` })).status).toBe(200);
    expect((await t.call("GET", "/api/status/pages/team/summary.json")).status).toBe(401);
  });

  test("a custom domain is served its page at the root", async () => {
    const t = await setup();
    await t.call("PUT", "/api/status/config", { token: t.token, body: { title: "Main", description: "", monitorIds: [], agentIds: [], announcement: null } });
    await t.page({ slug: "acme", title: "Acme status", customDomain: "status.acme.example" });
    const res = await t.call<{ page: PublicStatusPage }>("GET", "/api/status", { headers: { host: "Status.Acme.example:8443" } });
    expect(res.body.page.title).toBe("Acme status");
    expect((await t.call<{ page: PublicStatusPage }>("GET", "/api/status")).body.page.title).toBe("Main");
    expect((await t.call<{ statusPage: string | null }>("GET", "/api/config", { headers: { host: "status.acme.example" } })).body.statusPage).toBe("acme");
    expect((await t.call<{ statusPage: string | null }>("GET", "/api/config")).body.statusPage).toBeNull();
  });

  test("feeds and the summary: incidents and maintenance of the page, as Atom, RSS and JSON", async () => {
    const t = await setup();
    const shop = await t.monitor("Shop", { active: true });
    await t.page({ slug: "shop", title: "Shop & Co", groups: [{ name: "", items: [{ type: "monitor", id: shop }] }] });
    await t.call("POST", "/api/incidents", { token: t.token, body: { title: "Checkout <errors>", impact: "major", monitorIds: [shop], update: { state: "investigating", message: "Looking & fixing." } } });
    await t.call("POST", "/api/maintenance/start", { token: t.token, body: { title: "DB upgrade", monitorIds: [shop], minutes: 30 } });
    const atom = await t.app.handle(new Request("http://localhost/api/status/pages/shop/feed.atom"));
    expect(atom.headers.get("content-type")).toStartWith("application/atom+xml");
    const atomText = await atom.text();
    expect(atomText).toContain("<title>Shop &amp; Co</title>");
    // In the instance's message language (zh-CN unless changed).
    expect(atomText).toContain("[调查中] Checkout &lt;errors&gt;");
    expect(atomText).toContain("Looking &amp; fixing.");
    expect(atomText).toContain("DB upgrade");
    const rss = await (await t.app.handle(new Request("http://localhost/api/status/pages/shop/feed.rss"))).text();
    expect(rss).toContain("<rss version=\"2.0\">");
    expect(rssTexts(rss, "title")).toContain("[调查中] Checkout &lt;errors&gt;");
    const summary = (await t.call<{ summary: { status: string; components: { name: string; status: string }[]; incidents: { title: string }[]; maintenance: { title: string }[] } }>("GET", "/api/status/pages/shop/summary.json")).body.summary;
    expect(summary.components).toEqual([{ type: "monitor", name: "Shop", status: "maintenance", uptime: { day: null, month: null, quarter: null } }] as never);
    expect(summary.incidents.map((i) => i.title)).toEqual(["Checkout <errors>"]);
    expect(summary.maintenance.map((m) => m.title)).toEqual(["DB upgrade"]);
  });

  test("RSS: stored text reaches the reader as text, never as markup it would render", async () => {
    const t = await setup();
    const shop = await t.monitor("<img src=x onerror=alert(1)>", { active: true });
    await t.page({ slug: "shop", title: "Ops <b>bold</b> & Co", description: "<script>alert(0)</script>\nSecond line", groups: [{ name: "", items: [{ type: "monitor", id: shop }] }] });
    await t.call("POST", "/api/incidents", { token: t.token, body: { title: "<script>alert(2)</script>", impact: "major", monitorIds: [shop], update: { state: "investigating", message: '<a href="javascript:alert(3)">click</a> & more' } } });
    await t.call("POST", "/api/maintenance/start", { token: t.token, body: { title: "<iframe src=//evil>", description: "<script>alert(4)</script>", monitorIds: [shop], minutes: 30 } });
    const rss = await (await t.app.handle(new Request("http://localhost/api/status/pages/shop/feed.rss"))).text();
    // What a reader has after decoding the XML once: descriptions are HTML to it, and many render titles as HTML too.
    const titles = rssTexts(rss, "title");
    const descriptions = rssTexts(rss, "description");
    expect(titles[0]).toBe("Ops &lt;b&gt;bold&lt;/b&gt; & Co");
    expect(titles.slice(1).sort()).toEqual(["[维护：进行中] &lt;iframe src=//evil&gt;", "[调查中] &lt;script&gt;alert(2)&lt;/script&gt;"]);
    expect(descriptions[0]).toBe("&lt;script&gt;alert(0)&lt;/script&gt;<br>\nSecond line");
    const maintenance = descriptions.find((d) => d.includes("alert(4)"))!;
    const incident = descriptions.find((d) => d.includes("alert(3)"))!;
    expect(maintenance).toContain("&lt;script&gt;alert(4)&lt;/script&gt;");
    expect(maintenance).toContain("影响：&lt;img src=x onerror=alert(1)&gt;");
    expect(incident).toContain("调查中：&lt;a href=&quot;javascript:alert(3)&quot;&gt;click&lt;/a&gt; &amp; more");
    for (const text of [...titles, ...descriptions]) expect(text.replaceAll("<br>", "")).not.toContain("<");
    // Atom says its text is text (type="text"): readers show it as it is.
    const atom = await (await t.app.handle(new Request("http://localhost/api/status/pages/shop/feed.atom"))).text();
    expect(atom).toContain('<content type="text">');
    expect(atom).toContain("<title>[调查中] &lt;script&gt;alert(2)&lt;/script&gt;</title>");
  });

  test("feeds of a password or private page are never kept by a shared cache; a public page's briefly", async () => {
    const t = await setup();
    await t.page({ slug: "open", title: "Open" });
    await t.page({ slug: "partners", title: "Partners", visibility: "password", password: "open sesame" });
    await t.page({ slug: "team", title: "Team", visibility: "private" });
    const unlock = (await t.call<{ token: string }>("POST", "/api/status/pages/partners/unlock", { body: { password: "open sesame" } })).body.token;
    const get = (path: string, headers: Record<string, string> = {}) => t.app.handle(new Request(`http://localhost/api/status/pages/${path}`, { headers }));
    for (const feed of ["feed.atom", "feed.rss"]) {
      expect((await get(`open/${feed}`)).headers.get("cache-control")).toBe("public, max-age=5");
      for (const res of [await get(`partners/${feed}?token=${unlock}`), await get(`partners/${feed}`, { "x-status-token": unlock }), await get(`team/${feed}`, { authorization: `Bearer ${t.token}` })]) {
        expect([res.status, res.headers.get("cache-control")]).toEqual([200, "private, no-store"]);
        expect(res.headers.get("vary")).toContain("authorization");
      }
      // Without the credential: refused (a private page's feed takes a signed-in user's Authorization header only).
      expect((await get(`partners/${feed}`)).status).toBe(401);
      expect((await get(`team/${feed}?token=${unlock}`)).status).toBe(401);
    }
    const summary = await get("team/summary.json", { authorization: `Bearer ${t.token}` });
    expect([summary.status, summary.headers.get("cache-control")]).toEqual([200, "private, no-store"]);
  }, 30_000);

  test("planted secrets: nothing private on any page, its feeds or its summary", async () => {
    const t = await setup();
    const secretMonitor = await t.monitor("Shop", { url: `http://${SECRET}.example/health`, headers: [{ name: "Authorization", value: SECRET }], keyword: SECRET });
    const hidden = await t.monitor(`Hidden ${SECRET}`);
    await t.call("POST", "/api/incidents", { token: t.token, body: { title: `Internal ${SECRET}`, impact: "minor", monitorIds: [hidden], update: { state: "investigating", message: SECRET } } });
    await t.call("POST", "/api/maintenance/start", { token: t.token, body: { title: `Window ${SECRET}`, monitorIds: [hidden] } });
    const groups = [{ name: "Public", items: [{ type: "monitor", id: secretMonitor }] }];
    await t.call("PUT", "/api/status/config", { token: t.token, body: { title: "Main", description: "", monitorIds: [secretMonitor], agentIds: [], announcement: null } });
    await t.page({ slug: "one", groups });
    await t.page({ slug: "two", visibility: "password", password: `${SECRET}-password`, groups });
    await t.page({ slug: "three", visibility: "private", groups });
    const token = (await t.call<{ token: string }>("POST", "/api/status/pages/two/unlock", { body: { password: `${SECRET}-password` } })).body.token;
    for (const slug of ["default", "one", "two", "three"]) {
      const headers = { authorization: `Bearer ${t.token}`, "x-status-token": token };
      for (const path of ["", "/feed.atom", "/feed.rss", "/summary.json"]) {
        const res = await t.app.handle(new Request(`http://localhost/api/status/pages/${slug}${path}`, { headers }));
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text, `${slug}${path}`).not.toContain(SECRET);
        expect(text).not.toContain("127.0.0.1");
      }
    }
  });
});

/** The text of each <tag> in an RSS document with its XML decoded once: what a feed reader gets. */
function rssTexts(xml: string, tag: string): string[] {
  const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
  return [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, "g"))].map(([, raw]) =>
    raw.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (_, e: string) => (e[0] === "#" ? String.fromCodePoint(e[1].toLowerCase() === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : named[e])),
  );
}
