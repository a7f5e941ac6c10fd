// /api/auth/sso: the browser's round trip through the provider (start → provider → callback → /login?sso=ticket →
// exchange) and the admin's settings. The sign-in page learns whether SSO is offered from /api/config.
import { Elysia, t } from "elysia";
import { badRequest, conflict, HttpError } from "../../http/errors";
import { doc } from "../../http/openapi";
import { serverUrl } from "../../http/server-url";
import type { Logger } from "../../log";
import { signInReply } from "../routes";
import type { sessions } from "../session";
import type { SsoAccounts } from "./accounts";
import { SsoFailure, type OidcProvider } from "./provider";
import { CALLBACK_PATH, type SsoService } from "./service";
import { PROVIDER_FIELDS, settingsProblem, type EffectiveSsoSettings, type SsoSettings, type SsoSettingsReply, type SsoSettingsStore } from "./settings";

export interface SsoRouteDeps {
  sso: SsoService;
  settings: SsoSettingsStore;
  accounts: SsoAccounts;
  provider: OidcProvider;
  session: ReturnType<typeof sessions>;
  log: Logger;
  publicUrl?: string;
  trustProxy: number;
}

const STATE_COOKIE = "vigil_sso_state";

const cookieValue = (request: Request, name: string) =>
  request.headers.get("cookie")?.split(";").map((c) => c.trim().split("=")).find(([k]) => k === name)?.[1];

/** The settings as an admin sees them: never the client secret, only whether one is set. */
function publicSettings(s: EffectiveSsoSettings, redirectUri: string): SsoSettingsReply & { success: true } {
  const { clientSecret, source, passwordLoginForced, ...rest } = s;
  return { success: true, settings: { ...rest, clientSecretSet: clientSecret !== "" }, source, passwordLoginForced, redirectUri };
}

const roleField = t.Union([t.Literal("admin"), t.Literal("editor"), t.Literal("viewer")], { error: "The default role must be admin, editor or viewer" });
const groupsField = t.Array(t.String({ maxLength: 200 }), { maxItems: 50, error: "Groups are up to 50 names of 1-200 characters" });
const settingsBody = t.Object({
  enabled: t.Optional(t.Boolean({ error: "enabled must be true or false" })),
  name: t.Optional(t.String({ maxLength: 40, error: "The name must be 1-40 characters" })),
  issuer: t.Optional(t.String({ maxLength: 500, error: "The issuer must be a URL" })),
  clientId: t.Optional(t.String({ maxLength: 500, error: "The client id is too long" })),
  /** Absent: keep the one stored; "": a public client. */
  clientSecret: t.Optional(t.String({ maxLength: 2000, error: "The client secret is too long" })),
  scopes: t.Optional(t.String({ maxLength: 500, error: "The scopes must include openid" })),
  createAccounts: t.Optional(t.Boolean({ error: "createAccounts must be true or false" })),
  defaultRole: t.Optional(roleField),
  groupsClaim: t.Optional(t.String({ maxLength: 100, error: "The groups claim must be a claim name, e.g. groups" })),
  adminGroups: t.Optional(groupsField),
  editorGroups: t.Optional(groupsField),
  viewerGroups: t.Optional(groupsField),
  passwordLogin: t.Optional(t.Boolean({ error: "passwordLogin must be true or false" })),
});

export function ssoRoutes({ sso, settings, accounts, provider, session, log, publicUrl, trustProxy }: SsoRouteDeps) {
  const redirectUri = (request: Request) => serverUrl(request, publicUrl, trustProxy) + CALLBACK_PATH;
  const toLogin = (query: Record<string, string>, headers: Record<string, string> = {}) =>
    new Response(null, { status: 302, headers: { location: `/login?${new URLSearchParams(query)}`, "cache-control": "no-store", ...headers } });
  const clearState = `${STATE_COOKIE}=; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`;
  /** An expected failure goes back to the sign-in page with its code (the reason is logged for the admin). */
  const failed = (e: unknown, step: string) => {
    if (e instanceof SsoFailure || (e instanceof HttpError && e.code.startsWith("SSO_"))) {
      log.warn(`single sign-on failed (${step})`, { code: e.code, reason: e.message });
      return toLogin({ ssoError: e.code }, { "set-cookie": clearState });
    }
    log.error(`single sign-on failed (${step})`, { error: e instanceof Error ? e.message : String(e) });
    return toLogin({ ssoError: "SSO_FAILED" }, { "set-cookie": clearState });
  };

  return new Elysia({ prefix: "/api/auth/sso", detail: { tags: ["auth"] } })
    .use(session)
    .get(
      "/start",
      async ({ request, query }) => {
        try {
          const uri = redirectUri(request);
          const { url, state } = await sso.start(uri, query.returnTo);
          const secure = uri.startsWith("https:") ? "; Secure" : "";
          return new Response(null, {
            status: 302,
            headers: { location: url, "cache-control": "no-store", "set-cookie": `${STATE_COOKIE}=${state}; Path=${CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=600${secure}` },
          });
        } catch (e) {
          return failed(e, "start");
        }
      },
      { query: t.Object({ returnTo: t.Optional(t.String({ maxLength: 500 })) }), detail: doc("Begin a single sign-on: a redirect to the provider (or back to /login?ssoError=CODE)") },
    )
    .get(
      "/callback",
      async ({ request }) => {
        try {
          const { ticket, returnTo } = await sso.callback(redirectUri(request), new URL(request.url).searchParams, cookieValue(request, STATE_COOKIE));
          return toLogin({ sso: ticket, returnTo }, { "set-cookie": clearState });
        } catch (e) {
          return failed(e, "callback");
        }
      },
      { detail: doc("The provider's redirect back (code, state): to /login?sso=TICKET, or /login?ssoError=CODE") },
    )
    .post(
      "/exchange",
      async ({ body, jwt, issueToken }) => {
        const user = await sso.exchange(body.ticket);
        if (!user) throw new HttpError(401, "SSO_TICKET_INVALID", "This sign-in has expired or was used already: sign in again");
        return signInReply(user, jwt, issueToken);
      },
      {
        body: t.Object({ ticket: t.String({ minLength: 1, maxLength: 200, error: "ticket is required" }) }),
        detail: doc("Trade the one-use ticket of a single sign-on (a minute) for a session, or the two-factor step", 401),
      },
    )
    .get("/settings", async ({ request }) => publicSettings(await settings.effective(), redirectUri(request)), {
      auth: "accounts",
      detail: doc("Single sign-on settings (admins): the client secret is never shown, only whether one is set"),
    })
    .put(
      "/settings",
      async ({ body, request, user }) => {
        const { clientSecret, ...fields } = body;
        if (settings.flags.provider && PROVIDER_FIELDS.some((k) => body[k] !== undefined)) {
          throw conflict("SSO_SET_BY_FLAGS", "Single sign-on is set by the server's flags (--oidc-*): change it there");
        }
        const current = await settings.stored();
        const next: SsoSettings = {
          ...current,
          ...fields,
          ...(clientSecret !== undefined ? { clientSecret } : {}),
          ...(fields.issuer !== undefined ? { issuer: fields.issuer.trim().replace(/\/+$/, "") } : {}),
          ...(fields.name !== undefined ? { name: fields.name.trim() } : {}),
          ...(fields.scopes !== undefined ? { scopes: fields.scopes.trim().replace(/\s+/g, " ") } : {}),
        };
        const problem = settingsProblem(next);
        if (problem) throw badRequest("VALIDATION", problem);
        const merged = settings.flags.provider ? { ...next, ...settings.flags.provider } : next;
        // Turning single sign-on off turns passwords back on (asked for both at once: refused).
        if (!next.passwordLogin && !settings.usable(merged)) {
          if (body.passwordLogin === false) throw badRequest("SSO_REQUIRED", "Password sign-in can be turned off only while single sign-on is on");
          next.passwordLogin = true;
        }
        if (!next.passwordLogin && settings.flags.passwordLogin === undefined) {
          // Whoever turns passwords off has shown the provider signs them in: no admin locks everyone out by a typo.
          if (!(await accounts.hasIdentity(user.id, merged.issuer))) {
            throw conflict("SSO_NOT_TRIED", "Sign in with single sign-on once yourself before turning password sign-in off");
          }
        }
        await settings.save(next);
        log.info("single sign-on settings changed", { by: user.id, enabled: next.enabled, passwordLogin: next.passwordLogin });
        return publicSettings(await settings.effective(), redirectUri(request));
      },
      {
        auth: "accounts",
        body: settingsBody,
        detail: doc("Change the single sign-on settings (admins); fields left out stay as they are", 400, 409),
      },
    )
    .post(
      "/settings/test",
      async ({ body }) => {
        const stored = settings.flags.provider ?? (await settings.stored());
        const s = { ...stored, ...body, clientSecret: body.clientSecret ?? stored.clientSecret, issuer: (body.issuer ?? stored.issuer).trim().replace(/\/+$/, "") };
        const problem = settingsProblem({ ...s, enabled: true, passwordLogin: true });
        if (problem) throw badRequest("VALIDATION", problem);
        try {
          return { success: true, message: "The provider answered", provider: await provider.test(s) };
        } catch (e) {
          throw badRequest("SSO_DISCOVERY_FAILED", `The provider's discovery failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      },
      {
        auth: "accounts",
        body: t.Object({
          issuer: t.Optional(t.String({ maxLength: 500, error: "The issuer must be a URL" })),
          clientId: t.Optional(t.String({ maxLength: 500, error: "The client id is too long" })),
          clientSecret: t.Optional(t.String({ maxLength: 2000, error: "The client secret is too long" })),
        }),
        detail: doc("Ask the provider for its discovery document with these settings (admins)", 400),
      },
    );
}
