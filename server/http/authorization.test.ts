// The authorization matrix: every route of the app (from its own route table) × every kind of caller, with the
// status each must get. A route missing from ACCESS fails the test, so a new route cannot be forgotten.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testHost } from "../agents/test-fixtures";
import { PASSWORD, testApp } from "../test-support";
import { scopeNeeded, TOKEN_SCOPES, type TokenScope } from "../tokens/public";

/**
 * Who may call each route:
 * - public: anyone (the answer may still be 400/404, never 401/403);
 * - user: any signed-in account (session or API token) to read (GET); editors and admins for anything else (a viewer
 *   gets 403);
 * - editor: editors and admins, whatever the method (a viewer gets 403);
 * - self: a signed-in account for its own record, an admin for any (the matrix asks about someone else's);
 * - admin: admins only (an admin's session or API token);
 * - accounts: admins only, managing accounts (an admin's session, or an admin's API token with full access);
 * - session: a signed-in account with a session, not an API token (managing API tokens);
 * - agent: an agent's credential only.
 * API tokens are further narrowed by their scope: read for GET, write for other calls, full for accounts and self.
 */
type Access = "public" | "user" | "editor" | "self" | "admin" | "accounts" | "session" | "agent";

const ACCESS: Record<string, Access> = {
  "GET /healthz": "public",
  "GET /api/config": "public",
  "POST /api/auth/login": "public",
  "POST /api/auth/register": "public",
  "GET /api/auth/me": "user",
  "GET /api/users/": "accounts",
  "POST /api/users/": "accounts",
  "GET /api/users/:id": "self",
  "PUT /api/users/:id": "self",
  "DELETE /api/users/:id": "accounts",
  "POST /api/users/:id/change-password": "self",
  "GET /api/registration/": "accounts",
  "PUT /api/registration/": "accounts",
  "POST /api/registration/invites": "accounts",
  "POST /api/registration/invites/check": "public", // the invite token in the body is what it asks about
  "DELETE /api/registration/invites/:id": "accounts",
  "GET /api/tokens/": "session",
  "POST /api/tokens/": "session",
  "DELETE /api/tokens/:id": "session",
  "GET /api/monitors": "user",
  "GET /api/monitors/page": "user",
  "GET /api/monitors/names": "user",
  "POST /api/monitors": "user",
  "GET /api/monitors/stats": "admin",
  "GET /api/monitors/:id": "user",
  "GET /api/monitors/:id/members": "user",
  "PUT /api/monitors/:id": "user",
  "DELETE /api/monitors/:id": "user",
  "POST /api/monitors/:id/check": "user",
  "POST /api/monitors/:id/push-token": "user",
  "POST /api/monitors/:id/manual": "user",
  "GET /api/monitors/types": "user",
  "GET /api/tags": "user",
  "PUT /api/tags/:name": "user",
  "DELETE /api/tags/:name": "user",
  "GET /api/push/:token": "public", // the token in the path is the credential
  "POST /api/push/:token": "public",
  "GET /api/monitors/checks/recent": "user",
  "GET /api/monitors/:id/checks": "user",
  "GET /api/monitors/:id/export": "user",
  "GET /api/reports/:kind/:ref": "user",
  "GET /api/monitors/:id/budget": "user",
  "GET /api/escalation-policies": "user",
  "POST /api/escalation-policies": "user",
  "GET /api/escalation-policies/:id": "user",
  "PUT /api/escalation-policies/:id": "user",
  "DELETE /api/escalation-policies/:id": "user",
  "GET /api/monitors/:id/escalation": "user",
  "GET /api/agents/:id/escalation": "user",
  "GET /api/oncall/schedules": "user",
  "POST /api/oncall/schedules": "user",
  "GET /api/oncall/schedules/:id": "user",
  "PUT /api/oncall/schedules/:id": "user",
  "DELETE /api/oncall/schedules/:id": "user",
  "GET /api/oncall/schedules/:id/shifts": "user",
  "POST /api/oncall/schedules/:id/overrides": "user",
  "DELETE /api/oncall/schedules/:id/overrides/:overrideId": "user",
  "GET /api/oncall/people": "editor", // every active account's name, for the schedule form
  "GET /api/report-schedules/": "user",
  "POST /api/report-schedules/": "user",
  "GET /api/report-schedules/:id": "user",
  "PUT /api/report-schedules/:id": "user",
  "DELETE /api/report-schedules/:id": "user",
  "POST /api/report-schedules/:id/send": "user",
  "GET /api/monitors/:id/history": "user",
  "GET /api/monitors/:id/series": "user",
  "GET /api/monitors/:id/screenshots": "user",
  "GET /api/monitors/:id/screenshots/:time": "user",
  "POST /api/agents/register": "public", // proven by the one-time registration token in the body
  "POST /api/agents/report": "agent",
  "POST /api/agents/tokens": "user",
  "GET /api/agents/tokens": "editor", // registration tokens are secrets
  "DELETE /api/agents/tokens/:id": "user",
  "GET /api/agents/": "user",
  "GET /api/agents/:id": "user",
  "GET /api/agents/:id/series": "user",
  "GET /api/agents/:id/export": "user",
  "PUT /api/agents/:id": "user",
  "DELETE /api/agents/:id": "user",
  "GET /api/agents/targets": "public",
  "GET /api/notifications/channels": "user",
  "POST /api/notifications/channels": "user",
  "GET /api/notifications/channels/:id": "user",
  "PUT /api/notifications/channels/:id": "user",
  "DELETE /api/notifications/channels/:id": "user",
  "POST /api/notifications/channels/:id/test": "user",
  "GET /api/notifications/settings": "user",
  "PUT /api/notifications/settings": "user",
  "GET /api/notifications/settings/overrides": "user",
  "GET /api/notifications/settings/monitors/:id": "user",
  "PUT /api/notifications/settings/monitors/:id": "user",
  "DELETE /api/notifications/settings/monitors/:id": "user",
  "GET /api/notifications/settings/agents/:id": "user",
  "PUT /api/notifications/settings/agents/:id": "user",
  "DELETE /api/notifications/settings/agents/:id": "user",
  "GET /api/notifications/deliveries": "user",
  "GET /api/status/": "public",
  "GET /api/status/badge/:file": "public",
  "GET /api/status/config": "user",
  "PUT /api/status/config": "user",
  "GET /api/dashboard": "user",
  "GET /api/cluster/nodes": "user",
  "GET /api/backup": "accounts", // every password hash and channel secret is in it
  "POST /api/import/kuma/plan": "accounts", // it reads and would write every monitor and channel secret
  "POST /api/import/kuma/apply": "accounts",
  "POST /api/config/plan": "admin",
  "POST /api/config/apply": "admin",
  "GET /api/config/export": "admin",
  "GET /api/config/schema": "public", // the file format, as the API docs describe it
  "GET /api/config/managed": "user", // keys and ids, for the UI's marks
  "GET /api/status/pages/:slug": "public",
  "POST /api/status/pages/:slug/unlock": "public",
  "GET /api/status/pages/:slug/feed.atom": "public",
  "GET /api/status/pages/:slug/feed.rss": "public",
  "GET /api/status/pages/:slug/summary.json": "public",
  "GET /api/status-pages": "user",
  "POST /api/status-pages": "user",
  "GET /api/status-pages/:id": "user",
  "PUT /api/status-pages/:id": "user",
  "DELETE /api/status-pages/:id": "user",
  "POST /api/status-pages/:id/feed-key": "editor",
  "DELETE /api/status-pages/:id/feed-key": "editor",
  "POST /api/notifications/templates/preview": "user",
  "POST /api/auth/login/2fa": "public", // the challenge of a right password and a code are what it asks for
  "GET /api/monitors/ping-support": "user",
  "GET /api/agents/:id/containers": "user",
  "GET /api/monitors/:id/locations": "user",
  "PUT /api/monitors/:id/locations": "admin", // an agent runs what is assigned to it, inside its own network
  "GET /api/monitors/:id/locations/series": "user",
  "POST /api/agents/probes": "agent",
  "GET /api/auth/sso/start": "public", // a redirect to the provider
  "GET /api/auth/sso/callback": "public", // the provider's answer, checked against the state this browser holds
  "POST /api/auth/sso/exchange": "public", // the one-use ticket in the body is the credential
  "GET /api/auth/sso/settings": "accounts",
  "PUT /api/auth/sso/settings": "accounts",
  "POST /api/auth/sso/settings/test": "accounts",
  "GET /api/auth/2fa/": "session",
  "POST /api/auth/2fa/setup": "session",
  "POST /api/auth/2fa/enable": "session",
  "POST /api/auth/2fa/disable": "session",
  "PUT /api/auth/2fa/policy": "accounts",
  "POST /api/auth/2fa/reset/:id": "accounts",
  "GET /api/status/pages/:slug/subscriptions": "public",
  "POST /api/status/pages/:slug/subscribe": "public", // rate-limited; mails only a confirmation link
  "GET /api/status/subscriptions/confirm": "public", // says what the mailed token is for; changes nothing
  "POST /api/status/subscriptions/confirm": "public", // the mailed token in the body is the credential
  "GET /api/status/subscriptions/unsubscribe": "public", // says what the mailed token is for; changes nothing
  "POST /api/status/subscriptions/unsubscribe": "public", // the mailed token in the URL is the credential
  "GET /api/status-pages/:id/subscribers": "admin",
  "DELETE /api/status-pages/:id/subscribers/:subscriberId": "admin",
  "GET /api/incidents": "user",
  "POST /api/incidents": "user",
  "GET /api/incidents/:id": "user",
  "PUT /api/incidents/:id": "user",
  "DELETE /api/incidents/:id": "user",
  "POST /api/incidents/:id/updates": "user",
  "PUT /api/incidents/:id/updates/:updateId": "user",
  "DELETE /api/incidents/:id/updates/:updateId": "user",
  "GET /api/maintenance": "user",
  "POST /api/maintenance": "user",
  "POST /api/maintenance/start": "user",
  "POST /api/maintenance/preview": "user",
  "GET /api/maintenance/:id": "user",
  "PUT /api/maintenance/:id": "user",
  "POST /api/maintenance/:id/end": "user",
  "DELETE /api/maintenance/:id": "user",
  "GET /api/webpush/key": "user",
  "GET /api/webpush/subscriptions": "session", // a device is a browser someone signed in on
  "POST /api/webpush/subscriptions": "session",
  "DELETE /api/webpush/subscriptions/:id": "session",
  "POST /api/webpush/subscriptions/:id/test": "session",
  "GET /api/me/channels": "session", // a person's own contact channels, viewers' too
  "POST /api/me/channels": "session",
  "GET /api/me/channels/:id": "session",
  "PUT /api/me/channels/:id": "session",
  "DELETE /api/me/channels/:id": "session",
  "POST /api/me/channels/:id/test": "session",
  "GET /api/me/quiet-hours": "session",
  "PUT /api/me/quiet-hours": "session",
  "GET /api/webpush/recipients": "editor", // every account's name, for a webpush channel's form
  "GET /api/problems": "user",
  "POST /api/problems/ack": "editor",
  "GET /api/ack/:token": "public", // says what the signed link in an alert is for; changes nothing
  "POST /api/ack/:token": "public", // the signed link is the credential, for that one problem
  "GET /metrics": "user",
  "GET /install.sh": "public",
  "GET /downloads/:file": "public",
  "ALL /api/*": "public", // the JSON 404 for unknown API paths
  "GET /*": "public", // the UI's files
};

// Routes served from the OpenAPI document and its assets are public: docs describe the API, they hold no data.
const isDocs = (path: string) => path === "/api/docs" || path.startsWith("/api/docs/");

type Token = `${"user" | "admin"}${"Read" | "Write" | "Full"}Token`;
type Caller =
  | "anonymous"
  | "user"
  | "viewer"
  | "viewerReadToken"
  | "admin"
  | "disabledUser"
  | "reEnabledUser"
  | "deletedUser"
  | "beforePasswordChange"
  | Token
  | "revokedApiToken"
  | "reEnabledUserToken"
  | "agent";

const cap = (scope: TokenScope) => scope[0]!.toUpperCase() + scope.slice(1);
const TOKENS = (["user", "admin"] as const).flatMap((role) => TOKEN_SCOPES.map((scope) => ({ caller: `${role}${cap(scope)}Token` as Token, role, scope })));

const CALLERS: Caller[] = [
  "anonymous",
  "user",
  "viewer",
  "viewerReadToken",
  "admin",
  "disabledUser",
  "reEnabledUser",
  "deletedUser",
  "beforePasswordChange",
  ...TOKENS.map((t) => t.caller),
  "revokedApiToken",
  "reEnabledUserToken",
  "agent",
];

/** Allowed (the route ran: any status but 401/403), or the status it must get. */
function expected(access: Access, method: string, caller: Caller): "allowed" | 401 | 403 {
  if (access === "public") return "allowed";
  if (access === "agent") return caller === "agent" ? "allowed" : 401;
  const token = caller === "viewerReadToken" ? { role: "viewer" as const, scope: "read" as TokenScope } : TOKENS.find((t) => t.caller === caller);
  const role = token?.role ?? (caller === "user" || caller === "admin" || caller === "viewer" ? caller : null);
  if (!role) return 401; // anonymous, disabled, re-enabled with an old credential, deleted, signed out, revoked, agent
  if ((access === "admin" || access === "accounts") && role !== "admin") return 403;
  if (role === "viewer" && (access === "editor" || (access === "user" && method !== "GET" && method !== "HEAD"))) return 403;
  if (access === "self" && role !== "admin") return 403; // someone else's record
  if (!token) return "allowed";
  if (access === "session") return 403;
  return TOKEN_SCOPES.indexOf(token.scope) >= TOKEN_SCOPES.indexOf(scopeNeeded(access, method)) ? "allowed" : 403;
}

describe("authorization matrix", () => {
  test("every route × every kind of caller gets the status its access rule says", async () => {
    const uiDir = mkdtempSync(join(tmpdir(), "vigil-matrix-ui-"));
    writeFileSync(join(uiDir, "index.html"), "<!doctype html><title>Vigil</title>");
    const t = await testApp({ uiDir });
    t.services.monitors.start(); // /healthz answers 200 only while the checks run
    try {
      const admin = await t.signUp("alice");
      const user = await t.signUp("bob");
      const viewer = await t.signUp("vera");
      expect((await t.call("PUT", `/api/users/${viewer.user.id}`, { token: admin.token, body: { username: "vera", role: "viewer" } })).status).toBe(200);
      const disabled = await t.signUp("carol");
      const deleted = await t.signUp("dave");
      const changed = await t.signUp("erin");
      const reEnabled = await t.signUp("frank");
      const token = async (who: { token: string }, name: string, scope: TokenScope = "read") => {
        const res = await t.call<{ secret: string; token: { id: number } }>("POST", "/api/tokens", { token: who.token, body: { name, scope } });
        expect(res.status).toBe(201);
        return res.body;
      };
      const tokens = {} as Record<Token, string>;
      for (const { caller, role, scope } of TOKENS) tokens[caller] = (await token(role === "admin" ? admin : user, caller, scope)).secret;
      const revoked = await token(user, "old script");
      expect((await t.call("DELETE", `/api/tokens/${revoked.token.id}`, { token: user.token })).status).toBe(200);
      const setStatus = (who: { user: { id: number; username: string } }, status: string) =>
        t.call("PUT", `/api/users/${who.user.id}`, { token: admin.token, body: { username: who.user.username, status } });
      expect((await setStatus(disabled, "disabled")).status).toBe(200);
      // Disabled, then enabled again: what frank held before must stay dead.
      const reEnabledToken = (await token(reEnabled, "frank's script", "full")).secret;
      expect((await setStatus(reEnabled, "disabled")).status).toBe(200);
      expect((await setStatus(reEnabled, "active")).status).toBe(200);
      expect((await t.call("DELETE", `/api/users/${deleted.user.id}`, { token: admin.token })).status).toBe(200);
      const newPassword = "another correct horse";
      expect((await t.call("POST", `/api/users/${changed.user.id}/change-password`, { token: changed.token, body: { currentPassword: PASSWORD, newPassword } })).status).toBe(200);
      const agent = await t.services.agents.register((await t.services.agents.createToken(admin.user.id)).token, "db-1", testHost);
      if (typeof agent === "string") throw new Error(agent);

      const credentials: Record<Caller, string | undefined> = {
        anonymous: undefined,
        user: user.token,
        viewer: viewer.token,
        viewerReadToken: (await token(viewer, "vera's dashboard")).secret,
        admin: admin.token,
        disabledUser: disabled.token,
        reEnabledUser: reEnabled.token,
        deletedUser: deleted.token,
        beforePasswordChange: changed.token,
        ...tokens,
        revokedApiToken: revoked.secret,
        reEnabledUserToken: reEnabledToken,
        agent: agent.credential,
      };

      const routes = t.app.routes.filter((r) => r.method !== "WS");
      const unclassified = routes.map((r) => `${r.method} ${r.path}`).filter((key) => !(key in ACCESS) && !isDocs(key.split(" ")[1]));
      expect(unclassified).toEqual([]);

      const wrong: string[] = [];
      let checked = 0;
      for (const route of routes) {
        const key = `${route.method} ${route.path}`;
        const access: Access = isDocs(route.path) ? "public" : ACCESS[key];
        const method = route.method === "ALL" ? "GET" : route.method;
        // Someone else's record (id 1 is alice, the admin); other ids name nothing (the route still decides who).
        const path = route.path.replace(":id", route.path.startsWith("/api/users/") ? "1" : "999999").replace(":file", "x.svg").replace("*", "nothing-here");
        for (const caller of CALLERS) {
          const res = await t.app.handle(
            new Request(`http://localhost${path}`, {
              method,
              headers: { "content-type": "application/json", ...(credentials[caller] ? { authorization: `Bearer ${credentials[caller]}` } : {}) },
              // An empty object: whatever the route wants, the caller's rights are decided before the body is read.
              body: method === "GET" ? undefined : "{}",
            }),
          );
          checked++;
          const want = expected(access, method, caller);
          const got = res.status;
          const ok = want === "allowed" ? got !== 401 && got !== 403 && got < 500 : got === want;
          if (!ok) wrong.push(`${key} as ${caller}: ${got}, expected ${want}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(checked).toBe(routes.length * CALLERS.length);
    } finally {
      await t.services.monitors.stop();
      rmSync(uiDir, { recursive: true, force: true });
    }
  });

  test("the live socket takes sessions only: an API token or an agent credential is refused", async () => {
    const t = await testApp();
    const user = await t.signUp("bob");
    const created = await t.call<{ secret: string }>("POST", "/api/tokens", { token: user.token, body: { name: "script" } });
    const agent = await t.services.agents.register((await t.services.agents.createToken(user.user.id)).token, "db-1", testHost);
    if (typeof agent === "string") throw new Error(agent);
    t.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const outcome = async (token: string) => {
        const ws = new WebSocket(`ws://127.0.0.1:${t.app.server!.port}/api/live?token=${token}`);
        const messages: string[] = [];
        ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)).type);
        const closed = await Promise.race([new Promise<number>((resolve) => (ws.onclose = (e) => resolve(e.code))), Bun.sleep(2000).then(() => -1)]);
        ws.close();
        return { closed, messages };
      };
      for (const token of [created.body.secret, agent.credential]) {
        const { closed, messages } = await outcome(token);
        expect(closed).not.toBe(-1);
        expect(messages).not.toContain("hello");
      }
      // A session still opens it (the same path, so the refusals above are about the credential).
      const ws = new WebSocket(`ws://127.0.0.1:${t.app.server!.port}/api/live?token=${user.token}`);
      const hello = await new Promise<string>((resolve) => (ws.onmessage = (e) => resolve(JSON.parse(String(e.data)).type)));
      expect(hello).toBe("hello");
      ws.close();
    } finally {
      t.services.live.close();
      await t.app.stop(true);
    }
  });
});
