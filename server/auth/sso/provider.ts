// The OpenID Connect side of single sign-on, through openid-client (panva's certified relying-party library):
// discovery, the authorization URL with PKCE (S256), state and nonce, and the code exchange, whose ID token is
// checked for issuer, audience, expiry, nonce — and its signature against the provider's published keys (JWKS): the
// library skips that by default for tokens fetched straight from the token endpoint over TLS; Vigil does not.
import * as oidc from "openid-client";
import { createHash } from "node:crypto";
import { isLoopbackUrl, type SsoProviderSettings } from "./settings";

/** How long a discovered configuration is reused before the provider is asked again. */
const DISCOVERY_TTL_MS = 60 * 60_000;
/** Seconds each request to the provider may take. */
const TIMEOUT_S = 10;

export interface ProviderClaims {
  sub: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
  preferredUsername?: string;
  groups: string[];
}

/** The provider refused, or its answer did not pass the checks: the reason is for the log, not for the browser. */
export class SsoFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

const keyOf = (s: Pick<SsoProviderSettings, "issuer" | "clientId" | "clientSecret">) =>
  createHash("sha256").update(JSON.stringify([s.issuer, s.clientId, s.clientSecret])).digest("hex");

export function createOidcProvider(now: () => number = Date.now) {
  const cache = new Map<string, { config: Promise<oidc.Configuration>; at: number }>();

  async function discover(s: Pick<SsoProviderSettings, "issuer" | "clientId" | "clientSecret">): Promise<oidc.Configuration> {
    const issuer = new URL(s.issuer);
    const insecure = issuer.protocol === "http:" && isLoopbackUrl(issuer);
    const found = await oidc.discovery(issuer, s.clientId, undefined, undefined, {
      timeout: TIMEOUT_S,
      execute: insecure ? [oidc.allowInsecureRequests] : [],
    });
    const metadata = found.serverMetadata();
    // A confidential client authenticates the way the provider says it takes (POST body if it takes it, else Basic);
    // a public one (no secret) by PKCE alone.
    const methods = metadata.token_endpoint_auth_methods_supported;
    const auth = !s.clientSecret
      ? oidc.None()
      : methods && !methods.includes("client_secret_post") && methods.includes("client_secret_basic")
        ? oidc.ClientSecretBasic(s.clientSecret)
        : oidc.ClientSecretPost(s.clientSecret);
    const config = new oidc.Configuration(metadata, s.clientId, s.clientSecret || undefined, auth);
    config.timeout = TIMEOUT_S;
    if (insecure) oidc.allowInsecureRequests(config);
    if (metadata.jwks_uri) oidc.enableNonRepudiationChecks(config);
    else throw new SsoFailure("SSO_DISCOVERY_FAILED", "The provider publishes no signing keys (jwks_uri): ID tokens could not be verified");
    return config;
  }

  /** The provider's configuration, discovered once an hour (a failure is not kept). */
  function configuration(s: SsoProviderSettings): Promise<oidc.Configuration> {
    const key = keyOf(s);
    const hit = cache.get(key);
    if (hit && now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
    const config = discover(s);
    cache.set(key, { config, at: now() });
    config.catch(() => cache.delete(key));
    return config;
  }

  return {
    /** Asks the provider for its discovery document: what an admin's "test" shows. */
    async test(s: SsoProviderSettings) {
      try {
        const m = (await discover(s)).serverMetadata();
        return { issuer: m.issuer, authorizationEndpoint: m.authorization_endpoint ?? null, tokenEndpoint: m.token_endpoint ?? null, pkce: m.code_challenge_methods_supported?.includes("S256") ?? null };
      } catch (e) {
        throw e instanceof SsoFailure ? e : new SsoFailure("SSO_DISCOVERY_FAILED", describe(e));
      }
    },

    /** Where to send the browser, and the secrets the callback checks the answer with. */
    async begin(s: SsoProviderSettings, redirectUri: string) {
      const config = await configuration(s).catch((e) => {
        throw e instanceof SsoFailure ? e : new SsoFailure("SSO_DISCOVERY_FAILED", describe(e));
      });
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: s.scopes,
        response_type: "code",
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      });
      return { url: url.href, state, nonce, verifier };
    },

    /**
     * Trades the code for tokens and returns who signed in. `callbackUrl` is the redirect URI with the provider's
     * query (code, state, iss): the redirect URI sent again is its address without the query.
     */
    async finish(s: SsoProviderSettings, callbackUrl: URL, checks: { state: string; nonce: string; verifier: string }): Promise<ProviderClaims> {
      const config = await configuration(s);
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          pkceCodeVerifier: checks.verifier,
          idTokenExpected: true,
        });
      } catch (e) {
        throw new SsoFailure("SSO_FAILED", describe(e));
      }
      const id = tokens.claims();
      if (!id) throw new SsoFailure("SSO_FAILED", "The provider sent no ID token");
      let claims: Record<string, unknown> = { ...id };
      // Some providers put the e-mail address and groups only in userinfo.
      if ((claims.email === undefined || claims[s.groupsClaim] === undefined) && config.serverMetadata().userinfo_endpoint && tokens.access_token) {
        try {
          const info = await oidc.fetchUserInfo(config, tokens.access_token, id.sub);
          claims = { ...info, ...claims };
        } catch {
          // Userinfo is a bonus: the ID token alone signs in.
        }
      }
      return readClaims(claims, s.groupsClaim);
    },
  };
}

export type OidcProvider = ReturnType<typeof createOidcProvider>;

function readClaims(c: Record<string, unknown>, groupsClaim: string): ProviderClaims {
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  const rawGroups = c[groupsClaim];
  const groups = Array.isArray(rawGroups) ? rawGroups.filter((g): g is string => typeof g === "string") : typeof rawGroups === "string" ? [rawGroups] : [];
  return {
    sub: String(c.sub),
    email: text(c.email),
    // Some providers send the flag as the string "true".
    emailVerified: c.email_verified === true || c.email_verified === "true",
    name: text(c.name),
    preferredUsername: text(c.preferred_username),
    groups,
  };
}

function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? `: ${e.cause.message}` : "";
  const code = (e as { code?: string }).code;
  return `${e.message}${cause}${code ? ` (${code})` : ""}`;
}
