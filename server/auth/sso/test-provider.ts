// A small OpenID Connect provider for tests (API tests under Bun, browser tests under Node): discovery, a signing key
// published as JWKS, an authorization endpoint that signs in whoever the test says (no form), a token endpoint that
// checks the client, the redirect URI and PKCE, and userinfo. `nextToken` bends the next ID token the way an attacker
// or a broken provider would: signed by another key, for another audience, expired, with another nonce.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";

export interface TestUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  groups?: string[];
}

export interface TokenTweaks {
  /** Signed with a key the provider does not publish. */
  forged?: boolean;
  audience?: string;
  /** Seconds from now (negative: already expired). */
  expiresIn?: number;
  nonce?: string;
  issuer?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the authorization endpoint signs in (set it before a sign-in starts). */
  user: TestUser;
  /** Applied to the next ID token only. */
  nextToken: TokenTweaks;
  /** What the provider saw: the authorization requests' parameters, and the token requests' form fields. */
  seen: { authorize: URLSearchParams[]; token: URLSearchParams[] };
  /** Answer the next authorization request with ?error=access_denied (the user said no). */
  denyNext: boolean;
  close(): Promise<void>;
}

const s256 = (v: string) => createHash("sha256").update(v).digest("base64url");

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

export async function startTestProvider({ clientId = "vigil", clientSecret = "provider-secret", user }: { clientId?: string; clientSecret?: string; user?: TestUser } = {}): Promise<TestProvider> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const forger = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, { redirectUri: string; challenge: string; nonce?: string; user: TestUser }>();
  const accessTokens = new Map<string, TestUser>();
  let issuer = "";

  const provider: TestProvider = {
    issuer: "",
    clientId,
    clientSecret,
    user: user ?? { sub: "alice-sub", email: "alice@example.com", email_verified: true, name: "Alice", preferred_username: "alice" },
    nextToken: {},
    seen: { authorize: [], token: [] },
    denyNext: false,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };

  async function idToken(u: TestUser, nonce: string | undefined): Promise<string> {
    const tweak = provider.nextToken;
    provider.nextToken = {};
    const now = Math.floor(Date.now() / 1000);
    const key: CryptoKey = tweak.forged ? forger.privateKey : privateKey;
    return new SignJWT({ ...u, nonce: tweak.nonce ?? nonce })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setIssuer(tweak.issuer ?? issuer)
      .setSubject(u.sub)
      .setAudience(tweak.audience ?? clientId)
      .setIssuedAt(tweak.expiresIn !== undefined && tweak.expiresIn < 0 ? now + tweak.expiresIn - 300 : now)
      .setExpirationTime(now + (tweak.expiresIn ?? 300))
      .sign(key);
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    try {
      if (url.pathname === "/.well-known/openid-configuration") {
        return json(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ["code"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["RS256"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
          scopes_supported: ["openid", "email", "profile", "groups"],
        });
      }
      if (url.pathname === "/jwks") return json(res, 200, { keys: [jwk] });
      if (url.pathname === "/authorize") {
        const q = url.searchParams;
        provider.seen.authorize.push(q);
        const redirect = new URL(q.get("redirect_uri") ?? "");
        if (q.get("state")) redirect.searchParams.set("state", q.get("state")!);
        redirect.searchParams.set("iss", issuer);
        if (provider.denyNext) {
          provider.denyNext = false;
          redirect.searchParams.set("error", "access_denied");
        } else if (q.get("client_id") !== clientId || q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
          redirect.searchParams.set("error", "invalid_request");
        } else {
          const code = randomBytes(16).toString("base64url");
          codes.set(code, { redirectUri: q.get("redirect_uri")!, challenge: q.get("code_challenge")!, nonce: q.get("nonce") ?? undefined, user: { ...provider.user } });
          redirect.searchParams.set("code", code);
        }
        res.writeHead(302, { location: redirect.href });
        return res.end();
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const form = await readForm(req);
        provider.seen.token.push(form);
        const basic = req.headers.authorization?.startsWith("Basic ")
          ? Buffer.from(req.headers.authorization.slice(6), "base64").toString().split(":").map(decodeURIComponent)
          : undefined;
        const [id, secret] = basic ?? [form.get("client_id"), form.get("client_secret")];
        if (id !== clientId || secret !== clientSecret) return json(res, 401, { error: "invalid_client" });
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!grant || form.get("grant_type") !== "authorization_code" || form.get("redirect_uri") !== grant.redirectUri) {
          return json(res, 400, { error: "invalid_grant" });
        }
        if (s256(form.get("code_verifier") ?? "") !== grant.challenge) return json(res, 400, { error: "invalid_grant", error_description: "PKCE verification failed" });
        const accessToken = randomBytes(16).toString("base64url");
        accessTokens.set(accessToken, grant.user);
        return json(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 300, id_token: await idToken(grant.user, grant.nonce) });
      }
      if (url.pathname === "/userinfo") {
        const u = accessTokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
        return u ? json(res, 200, u) : json(res, 401, { error: "invalid_token" });
      }
      json(res, 404, { error: "not_found" });
    } catch (e) {
      json(res, 500, { error: "server_error", error_description: String(e) });
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider.issuer = issuer;
  return provider;
}
