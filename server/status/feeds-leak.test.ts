import { afterEach, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { testHost } from "../agents/test-fixtures";
import { testApp } from "../test-support";

// The leak scan over what status pages give to machines: every feed (Atom, RSS), summary and badge of a public, a
// password and a private page, asked by anyone, with the page's unlock token (header and ?token=), a session and an
// API token. Secrets of every kind are planted; none may show, locked pages refuse without their credential, and no
// reply that took a credential may be kept by a shared cache.

const MARK = "planted-mark-x7q";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function plant() {
  const t = await testApp();
  cleanup = () => t.services.monitors.stop();
  const { token: session } = await t.signUp("alice", `${MARK}-admin@mail.example`);
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => t.call<T>(method, path, { token: session, body });

  const shop = (await call<{ monitor: { id: number } }>("POST", "/api/monitors", {
    name: "Shop",
    url: `https://user:${MARK}-urlpw@${MARK}-host.example/path?key=${MARK}-query`,
    method: "POST",
    headers: [{ name: "Authorization", value: `Bearer ${MARK}-header` }],
    body: `{"token":"${MARK}-body"}`,
    keyword: `${MARK}-keyword`,
    active: false,
  })).body.monitor.id;
  const push = (await call<{ monitor: { id: number; pushToken: string } }>("POST", "/api/monitors", { name: "Nightly backup", type: "push", active: false })).body.monitor;
  // Only on the password and private pages: no badge for it, whoever asks.
  const internal = (await call<{ monitor: { id: number } }>("POST", "/api/monitors", { name: "Internal", url: "https://internal.example/", active: false })).body.monitor.id;
  const hidden = (await call<{ monitor: { id: number } }>("POST", "/api/monitors", { name: `Hidden ${MARK}-hidden`, url: `https://${MARK}-other.example/`, active: false })).body.monitor.id;

  const channels = [
    { name: "Mail", type: "smtp", config: { host: "127.0.0.1", port: 9, security: "none", username: "ops", password: `${MARK}-smtp`, from: "status@acme.test", to: "ops@acme.test" } },
    { name: "Hook", type: "webhook", config: { url: `https://hooks.example/${MARK}-hook` } },
  ];
  for (const body of channels) expect((await call("POST", "/api/notifications/channels", body)).status).toBe(201);
  const apiToken = (await call<{ secret: string }>("POST", "/api/tokens", { name: "script" })).body.secret;
  const registration = (await t.services.agents.createToken(1)).token;
  const agent = await t.services.agents.register(registration, `${MARK}-agent`, { ...testHost, hostname: `${MARK}-hostname` });
  if (typeof agent === "string") throw new Error(agent);

  const groups = (ids: number[]) => [{ name: "", items: ids.map((id) => ({ type: "monitor", id })) }];
  const page = async (slug: string, over: Record<string, unknown>) =>
    (await call<{ page: { id: number } }>("POST", "/api/status-pages", { slug, title: `${slug} title`, description: `${slug} description`, logo: null, customDomain: null, visibility: "public", announcement: null, ...over })).body.page.id;
  await call("PUT", "/api/status/config", { title: "Main", description: "", monitorIds: [shop, push.id], agentIds: [], announcement: null });
  const pubId = await page("pub", { groups: groups([shop, push.id]) });
  const pwId = await page("pw", { visibility: "password", password: `${MARK}-pagepw`, groups: groups([shop, push.id, internal]) });
  const privId = await page("priv", { visibility: "private", groups: groups([shop, push.id, internal]) });

  // Something in every feed; and things about the hidden monitor that no feed shows.
  await call("POST", "/api/incidents", { title: "Checkout errors", impact: "major", monitorIds: [shop, internal], update: { state: "investigating", message: "Looking into it." } });
  await call("POST", "/api/maintenance/start", { title: "DB upgrade", monitorIds: [shop, internal], minutes: 30 });
  await call("POST", "/api/incidents", { title: `Secret ${MARK}-incident`, impact: "minor", monitorIds: [hidden], update: { state: "investigating", message: `${MARK}-message` } });
  await call("POST", "/api/maintenance/start", { title: `Window ${MARK}-window`, monitorIds: [hidden], minutes: 30 });

  // Subscribers of every page (their addresses are for admins only).
  const { statusSubscribers } = t.db.t;
  for (const pageId of [1, pubId, pwId, privId]) {
    await t.db.orm.insert(statusSubscribers).values({ pageId, email: `${MARK}-sub${pageId}@mail.example`, confirmedAt: 1, unsubscribeToken: `${MARK}-unsub${pageId}`, baseUrl: "http://localhost", mailedAt: 1, createdAt: 1 });
  }

  const statusToken = (await t.call<{ token: string }>("POST", "/api/status/pages/pw/unlock", { body: { password: `${MARK}-pagepw` } })).body.token;
  const [{ password_hash: hash }] = await t.db.rows<{ password_hash: string }>(sql`SELECT password_hash FROM status_page WHERE slug = 'pw'`);
  const secrets = [MARK, session, apiToken, registration, agent.credential, push.pushToken, statusToken, hash];
  // The scan looks for what is really stored: the admin's own replies carry the marks.
  for (const path of ["/api/incidents", "/api/notifications/channels", `/api/monitors/${hidden}`]) expect(JSON.stringify((await call("GET", path)).body)).toContain(MARK);
  for (const s of secrets) expect(s.length).toBeGreaterThan(8);
  return { t, secrets, statusToken, session, apiToken, ids: { shop, push: push.id, internal, hidden } };
}

test("no feed, summary or badge of any page shows a planted secret; locked ones refuse; credentialed replies are private, no-store", async () => {
  const { t, secrets, statusToken, session, apiToken, ids } = await plant();
  type Caller = { name: string; headers: Record<string, string>; query?: string };
  const callers: Caller[] = [
    { name: "anyone", headers: {} },
    { name: "a forged token", headers: { "x-status-token": "not-a-token", authorization: "Bearer not-a-token" } },
    { name: "the unlock token", headers: { "x-status-token": statusToken } },
    { name: "the unlock token in the query", headers: {}, query: `?token=${statusToken}` },
    { name: "a session", headers: { authorization: `Bearer ${session}` } },
    { name: "an API token", headers: { authorization: `Bearer ${apiToken}` } },
  ];
  // Who gets the page: the rest are refused with 401 and this code.
  const admitted: Record<string, { code?: string; who: string[] }> = {
    default: { who: callers.map((c) => c.name) },
    pub: { who: callers.map((c) => c.name) },
    pw: { code: "STATUS_PAGE_PASSWORD", who: ["the unlock token", "the unlock token in the query", "a session"] },
    priv: { code: "STATUS_PAGE_PRIVATE", who: ["a session"] },
  };
  const wrong: string[] = [];
  let served = 0;
  const check = (what: string, text: string) => {
    for (const s of secrets) if (text.includes(s)) wrong.push(`${what}: shows ${s === MARK ? "a planted mark" : "a credential"} (…${text.slice(Math.max(0, text.indexOf(s) - 40), text.indexOf(s) + 40)}…)`);
  };

  for (const [slug, rule] of Object.entries(admitted)) {
    for (const path of ["feed.atom", "feed.rss", "summary.json"]) {
      for (const caller of callers) {
        const what = `${slug}/${path} by ${caller.name}`;
        const res = await t.app.handle(new Request(`http://localhost/api/status/pages/${slug}/${path}${caller.query ?? ""}`, { headers: caller.headers }));
        const text = await res.text();
        check(what, text);
        const cache = res.headers.get("cache-control") ?? "";
        if (!rule.who.includes(caller.name)) {
          if (res.status !== 401 || JSON.parse(text).code !== rule.code) wrong.push(`${what}: ${res.status} ${text.slice(0, 80)}, expected 401 ${rule.code}`);
          if (text.includes(`${slug} title`) || text.includes(`${slug} description`) || text.includes("Checkout")) wrong.push(`${what}: the refusal tells about the page`);
          if (!cache.includes("no-store")) wrong.push(`${what}: refusal cached (${cache})`);
          continue;
        }
        served++;
        if (res.status !== 200) wrong.push(`${what}: ${res.status}, expected 200`);
        else if (path !== "summary.json" && !text.includes("Checkout errors")) wrong.push(`${what}: the incident is missing`);
        if (rule.code) {
          if (cache !== "private, no-store") wrong.push(`${what}: Cache-Control ${cache}, expected private, no-store`);
          if (!/authorization/i.test(res.headers.get("vary") ?? "")) wrong.push(`${what}: no Vary on the credential`);
        } else if (path !== "summary.json" && cache !== "public, max-age=5") wrong.push(`${what}: Cache-Control ${cache}, expected the short public cache`);
      }
    }
  }

  // Badges: monitors of a public page only, whoever asks; the rest are 404 with nothing in them.
  for (const [name, id] of Object.entries(ids)) {
    for (const caller of callers) {
      const res = await t.app.handle(new Request(`http://localhost/api/status/badge/${id}.svg${caller.query ?? ""}`, { headers: caller.headers }));
      const text = await res.text();
      check(`badge of ${name} by ${caller.name}`, text);
      const want = name === "shop" || name === "push" ? 200 : 404;
      if (res.status !== want) wrong.push(`badge of ${name} by ${caller.name}: ${res.status}, expected ${want}`);
      if (want === 404 && text.includes("Internal")) wrong.push(`badge of ${name}: the refusal names the monitor`);
    }
  }

  expect(wrong).toEqual([]);
  // 2 public pages × 3 replies × 6 callers, the password page's 3 × 3, the private page's 3 × 1.
  expect(served).toBe(2 * 3 * 6 + 3 * 3 + 3);
}, 30_000);
