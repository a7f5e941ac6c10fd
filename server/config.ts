import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { hostname } from "node:os";
import { isPostgresUrl } from "./db/database";
import type { Role } from "./users/public";
import { issuerProblem, settingsProblem, splitGroups, SSO_DEFAULTS, type SsoFlags } from "./auth/sso/settings";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /**
   * postgres://… to keep everything in PostgreSQL instead of the data dir's SQLite file (several nodes may share
   * one); undefined for SQLite.
   */
  databaseUrl?: string;
  /** This node's name in a cluster (default: the host name). */
  nodeName: string;
  /** Explicit JWT secret; when undefined one is generated and kept in the data dir. */
  jwtSecret?: string;
  tokenTtl: string;
  logLevel: LogLevel;
  /**
   * Reverse proxies in front of Vigil whose X-Forwarded-* headers are trusted: 0 (none, the default), or how many
   * hops. The client address is the X-Forwarded-For entry the outermost trusted proxy added, counted from the right
   * (entries further left are whatever the client sent).
   */
  trustProxy: number;
  links: { blog: string; video: string; tempMail: string };
  /** HTTP checks running at once. */
  checkConcurrency: number;
  /** Days raw check results are kept (rollups are kept 365 days). */
  rawRetentionDays: number;
  /** MiB of memory each password hash (argon2id, two passes) takes; Bun's default, 64, when not given. */
  passwordHashMemoryMib?: number;
  /** Directory with the agent binaries served at /downloads (default: beside the executable, or dist/agents). */
  agentsDir?: string;
  /** The address agents and install commands use, when Vigil sits behind a proxy (default: the request's). */
  publicUrl?: string;
  /** Base URLs of the notification providers with fixed hosts (a proxy or a test fake may stand in). */
  telegramApi: string;
  resendApi: string;
  /** Refuse private and local addresses as monitor and webhook targets (link-local ones are always refused). */
  blockPrivateTargets: boolean;
  /** Single sign-on set by flags (--oidc-*) and --password-login (server/auth/sso/settings.ts). */
  sso: SsoFlags;
  /**
   * Hidden, for tests of real processes only (VIGIL_TEST_MINUTE_MS, not in --help): how long a minute of the settings
   * is (check intervals, reminders, escalation waits), as createServices' `minuteMs` in real-clock tests in-process;
   * the clocks themselves and the cluster's leases are untouched. Undefined: 60 000.
   */
  testMinuteMs?: number;
}

const LOG_LEVELS: LogLevel[] = ["debug", "info", "warn", "error"];

// Each option: flag name, environment variable, default, help text.
const OPTIONS = {
  host: { env: "VIGIL_HOST", default: "127.0.0.1", help: "Address to bind; 0.0.0.0 exposes Vigil on every interface" },
  port: { env: "VIGIL_PORT", default: "3000", help: "HTTP port" },
  "data-dir": { env: "VIGIL_DATA_DIR", default: "./data", help: "Directory holding the SQLite database and the generated secret" },
  "database-url": { env: "VIGIL_DATABASE_URL", default: undefined, help: "postgres://user:password@host:5432/db: keep everything in PostgreSQL 14+ (several Vigil nodes may share it) instead of SQLite in the data dir" },
  "node-name": { env: "VIGIL_NODE_NAME", default: undefined, help: "This node's name in a cluster (default: the host name)" },
  "jwt-secret": { env: "VIGIL_JWT_SECRET", default: undefined, help: "Secret that signs session tokens (default: generated on first start, kept in the data dir)" },
  "token-ttl": { env: "VIGIL_TOKEN_TTL", default: "7d", help: "Lifetime of a session token, e.g. 12h, 7d" },
  "log-level": { env: "VIGIL_LOG_LEVEL", default: "info", help: "debug | info | warn | error" },
  "trust-proxy": { env: "VIGIL_TRUST_PROXY", default: "false", help: "true (or the number of proxies, 1-10) behind a reverse proxy: client address from X-Forwarded-For, counted from the right" },
  "check-concurrency": { env: "VIGIL_CHECK_CONCURRENCY", default: "200", help: "HTTP checks running at once (1-10000)" },
  "raw-retention-days": { env: "VIGIL_RAW_RETENTION_DAYS", default: "7", help: "Days raw check results are kept (1-365); hourly and daily rollups are kept 365 days" },
  "password-hash-memory": { env: "VIGIL_PASSWORD_HASH_MEMORY", default: "64", help: "MiB each new password hash (argon2id) takes, 19-1024: lower on a small box (19 is OWASP's floor; a sign-in costs about a quarter of the CPU), higher for more resistance to cracking" },
  "agents-dir": { env: "VIGIL_AGENTS_DIR", default: undefined, help: "Directory of agent binaries served at /downloads (default: agents/ beside the executable, or dist/agents)" },
  "public-url": { env: "VIGIL_PUBLIC_URL", default: undefined, help: "Address agents use to reach Vigil, e.g. https://vigil.example.com (default: from each request)" },
  "telegram-api": { env: "VIGIL_TELEGRAM_API", default: "https://api.telegram.org", help: "Telegram Bot API base URL (a proxy or mirror where api.telegram.org is unreachable)" },
  "resend-api": { env: "VIGIL_RESEND_API", default: "https://api.resend.com", help: "Resend API base URL" },
  "block-private-targets": { env: "VIGIL_BLOCK_PRIVATE_TARGETS", default: "false", help: "true: monitors and webhooks may not target private or local addresses (link-local/metadata ones never may)" },
  "oidc-issuer": { env: "VIGIL_OIDC_ISSUER", default: undefined, help: "OpenID Connect issuer URL: single sign-on set here (the UI shows it read-only) instead of on /users" },
  "oidc-client-id": { env: "VIGIL_OIDC_CLIENT_ID", default: undefined, help: "OpenID Connect client id (with --oidc-issuer)" },
  "oidc-client-secret": { env: "VIGIL_OIDC_CLIENT_SECRET", default: "", help: "OpenID Connect client secret (empty: a public client, PKCE alone)" },
  "oidc-scopes": { env: "VIGIL_OIDC_SCOPES", default: SSO_DEFAULTS.scopes, help: "Scopes asked for (must include openid)" },
  "oidc-name": { env: "VIGIL_OIDC_NAME", default: SSO_DEFAULTS.name, help: "The sign-in button's provider name: \"Sign in with …\"" },
  "oidc-role": { env: "VIGIL_OIDC_ROLE", default: SSO_DEFAULTS.defaultRole, help: "Role of accounts made at a first SSO sign-in: admin | editor | viewer" },
  "oidc-create-accounts": { env: "VIGIL_OIDC_CREATE_ACCOUNTS", default: "true", help: "false: SSO signs in only people whose verified e-mail matches an account" },
  "oidc-groups-claim": { env: "VIGIL_OIDC_GROUPS_CLAIM", default: SSO_DEFAULTS.groupsClaim, help: "Claim holding the user's groups" },
  "oidc-admin-groups": { env: "VIGIL_OIDC_ADMIN_GROUPS", default: "", help: "Comma-separated groups whose members sign in as admins" },
  "oidc-editor-groups": { env: "VIGIL_OIDC_EDITOR_GROUPS", default: "", help: "Comma-separated groups whose members sign in as editors" },
  "oidc-viewer-groups": { env: "VIGIL_OIDC_VIEWER_GROUPS", default: "", help: "Comma-separated groups whose members sign in as viewers" },
  "password-login": { env: "VIGIL_PASSWORD_LOGIN", default: undefined, help: "true | false: force password sign-in on (the way back in) or off (default: the admin's setting)" },
  "blog-url": { env: "VIGIL_BLOG_URL", default: "https://blog.vigil.dev", help: "Footer link: blog" },
  "video-url": { env: "VIGIL_VIDEO_URL", default: "https://www.youtube.com/@vigil-monitor", help: "Footer link: video channel" },
  "temp-mail-url": { env: "VIGIL_TEMP_MAIL_URL", default: "https://mail.vigil.dev", help: "Footer link: temporary-mail service" },
} as const;

type OptionName = keyof typeof OPTIONS;

export class ConfigError extends Error {}

export function helpText(): string {
  const lines = [
    "Usage: vigil [serve] [options]",
    "       vigil backup <file> | restore <file> | reset-password <username> | install-service | migrate",
    "       vigil import kuma <path> | config export | config plan <file> | config apply <file>   (each with --help)",
    "",
    "Options (each also read from its environment variable):",
  ];
  for (const [name, o] of Object.entries(OPTIONS)) {
    const def = o.default === undefined ? "" : ` (default: ${o.default})`;
    lines.push(`  --${name.padEnd(19)} ${o.env.padEnd(25)} ${o.help}${def}`);
  }
  lines.push(`  ${"--help, -h".padEnd(47)} Show this help`, `  ${"--version, -v".padEnd(47)} Show the version`);
  return lines.join("\n");
}

/** Flags win over environment variables, which win over defaults. */
export function loadConfig(argv: string[], env: Record<string, string | undefined> = process.env): Config {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.keys(OPTIONS).map((k) => [k, { type: "string" as const }])),
    strict: true,
    allowPositionals: false,
  });
  const get = (name: OptionName): string | undefined =>
    (values[name] as string | undefined) ?? env[OPTIONS[name].env] ?? OPTIONS[name].default;

  const port = Number(get("port"));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`Invalid port: ${get("port")}`);
  const logLevel = get("log-level") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`Invalid log level: ${logLevel} (use ${LOG_LEVELS.join(", ")})`);
  const tokenTtl = get("token-ttl")!;
  if (!/^\d+[smhdw]$/.test(tokenTtl)) throw new ConfigError(`Invalid token lifetime: ${tokenTtl} (e.g. 12h, 7d)`);
  const jwtSecret = get("jwt-secret");
  if (jwtSecret !== undefined && jwtSecret.length < 32) throw new ConfigError("The JWT secret must be at least 32 characters");

  const publicUrl = get("public-url");
  if (publicUrl !== undefined && !/^https?:\/\/[^\s"'`$]+$/.test(publicUrl)) throw new ConfigError(`Invalid public URL: ${publicUrl}`);

  const apiBase = (name: "telegram-api" | "resend-api") => {
    const value = get(name)!.replace(/\/+$/, "");
    if (!/^https?:\/\/[^\s"'`$]+$/.test(value)) throw new ConfigError(`Invalid --${name}: ${value}`);
    return value;
  };
  const telegramApi = apiBase("telegram-api");
  const resendApi = apiBase("resend-api");

  const trust = get("trust-proxy")!;
  const trustProxy = trust === "true" ? 1 : trust === "false" ? 0 : Number(trust);
  if (!/^(true|false|\d+)$/.test(trust) || !Number.isInteger(trustProxy) || trustProxy > 10) {
    throw new ConfigError(`Invalid --trust-proxy: ${trust} (true, false, or the number of proxies, 0-10)`);
  }

  const blockPrivate = get("block-private-targets")!;
  if (blockPrivate !== "true" && blockPrivate !== "false") throw new ConfigError(`Invalid --block-private-targets: ${blockPrivate} (true or false)`);

  const databaseUrl = get("database-url") || undefined;
  if (databaseUrl !== undefined) {
    let valid = isPostgresUrl(databaseUrl);
    try {
      new URL(databaseUrl);
    } catch {
      valid = false;
    }
    if (!valid) throw new ConfigError("Invalid --database-url: use postgres://user:password@host:5432/database");
  }
  const nodeName = (get("node-name") || hostname()).trim();
  if (!/^[\w.-]{1,63}$/.test(nodeName)) throw new ConfigError(`Invalid node name: ${nodeName} (letters, digits, '.', '_', '-'; up to 63)`);

  const checkConcurrency = Number(get("check-concurrency"));
  if (!Number.isInteger(checkConcurrency) || checkConcurrency < 1 || checkConcurrency > 10_000) {
    throw new ConfigError(`Invalid check concurrency: ${get("check-concurrency")} (1-10000)`);
  }
  const rawRetentionDays = Number(get("raw-retention-days"));
  if (!Number.isInteger(rawRetentionDays) || rawRetentionDays < 1 || rawRetentionDays > 365) {
    throw new ConfigError(`Invalid raw retention: ${get("raw-retention-days")} (1-365 days)`);
  }

  // Hashes keep their own parameters: a change applies to passwords set from then on, every old one still verifies.
  const passwordHashMemoryMib = Number(get("password-hash-memory"));
  if (!Number.isInteger(passwordHashMemoryMib) || passwordHashMemoryMib < 19 || passwordHashMemoryMib > 1024) {
    throw new ConfigError(`Invalid password hash memory: ${get("password-hash-memory")} (19-1024 MiB)`);
  }

  const sso = ssoFlags(get);

  // Read from the environment alone, so it stays out of --help and the flags an operator sees.
  const testMinute = env.VIGIL_TEST_MINUTE_MS || undefined;
  const testMinuteMs = testMinute === undefined ? undefined : Number(testMinute);
  if (testMinuteMs !== undefined && (!Number.isInteger(testMinuteMs) || testMinuteMs < 100 || testMinuteMs > 60_000)) {
    throw new ConfigError(`Invalid VIGIL_TEST_MINUTE_MS: ${testMinute} (100-60000 ms; for tests only)`);
  }

  return {
    host: get("host")!,
    port,
    dataDir: resolve(get("data-dir")!),
    databaseUrl,
    nodeName,
    jwtSecret,
    tokenTtl,
    logLevel,
    trustProxy,
    links: { blog: get("blog-url")!, video: get("video-url")!, tempMail: get("temp-mail-url")! },
    checkConcurrency,
    rawRetentionDays,
    passwordHashMemoryMib,
    agentsDir: get("agents-dir") ? resolve(get("agents-dir")!) : undefined,
    publicUrl,
    telegramApi,
    resendApi,
    blockPrivateTargets: blockPrivate === "true",
    sso,
    testMinuteMs,
  };
}

function ssoFlags(get: (name: OptionName) => string | undefined): SsoFlags {
  const passwordLogin = get("password-login");
  if (passwordLogin !== undefined && passwordLogin !== "true" && passwordLogin !== "false") {
    throw new ConfigError(`Invalid --password-login: ${passwordLogin} (true or false)`);
  }
  const flags: SsoFlags = { passwordLogin: passwordLogin === undefined ? undefined : passwordLogin === "true" };
  const issuer = get("oidc-issuer");
  if (!issuer) return flags;
  const problem = issuerProblem(issuer);
  if (problem) throw new ConfigError(`Invalid --oidc-issuer: ${problem}`);
  const createAccounts = get("oidc-create-accounts");
  if (createAccounts !== "true" && createAccounts !== "false") throw new ConfigError(`Invalid --oidc-create-accounts: ${createAccounts} (true or false)`);
  flags.provider = {
    enabled: true,
    name: get("oidc-name")!,
    issuer: issuer.replace(/\/+$/, ""),
    clientId: get("oidc-client-id") ?? "",
    clientSecret: get("oidc-client-secret") ?? "",
    scopes: get("oidc-scopes")!,
    createAccounts: createAccounts === "true",
    defaultRole: get("oidc-role") as Role,
    groupsClaim: get("oidc-groups-claim")!,
    adminGroups: splitGroups(get("oidc-admin-groups")),
    editorGroups: splitGroups(get("oidc-editor-groups")),
    viewerGroups: splitGroups(get("oidc-viewer-groups")),
  };
  const invalid = settingsProblem({ ...flags.provider, passwordLogin: true });
  if (invalid) throw new ConfigError(`Invalid single sign-on flags: ${invalid}`);
  return flags;
}
