import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError, helpText, loadConfig } from "./config";

describe("loadConfig", () => {
  test("defaults bind to 127.0.0.1:3000 with ./data", () => {
    const c = loadConfig([], {});
    expect(c).toMatchObject({ host: "127.0.0.1", port: 3000, dataDir: resolve("data"), tokenTtl: "7d", logLevel: "info", trustProxy: 0 });
    expect(c.jwtSecret).toBeUndefined();
    expect(c.passwordHashMemoryMib).toBe(64);
    expect(loadConfig([], { VIGIL_PASSWORD_HASH_MEMORY: "19" }).passwordHashMemoryMib).toBe(19);
  });

  test("flags win over the environment, which wins over defaults", () => {
    const env = { VIGIL_PORT: "4000", VIGIL_HOST: "0.0.0.0", VIGIL_BLOG_URL: "https://env.example" };
    expect(loadConfig([], env)).toMatchObject({ port: 4000, host: "0.0.0.0", links: { blog: "https://env.example" } });
    expect(loadConfig(["--port", "8080", "--data-dir", "/var/lib/vigil"], env)).toMatchObject({ port: 8080, dataDir: "/var/lib/vigil" });
  });

  test.each([
    [["--port", "70000"], /Invalid port/],
    [["--port", "abc"], /Invalid port/],
    [["--log-level", "loud"], /Invalid log level/],
    [["--token-ttl", "forever"], /Invalid token lifetime/],
    [["--jwt-secret", "short"], /at least 32/],
    [["--check-concurrency", "0"], /Invalid check concurrency/],
    [["--raw-retention-days", "400"], /Invalid raw retention/],
    [["--password-hash-memory", "18"], /Invalid password hash memory/],
    [["--password-hash-memory", "1025"], /Invalid password hash memory/],
    [["--password-hash-memory", "32.5"], /Invalid password hash memory/],
  ])("rejects %j", (argv, message) => {
    expect(() => loadConfig(argv as string[], {})).toThrow(message);
    expect(() => loadConfig(argv as string[], {})).toThrow(ConfigError);
  });

  test("--trust-proxy takes true, false or a number of proxies", () => {
    expect(loadConfig(["--trust-proxy", "true"], {}).trustProxy).toBe(1);
    expect(loadConfig(["--trust-proxy", "false"], {}).trustProxy).toBe(0);
    expect(loadConfig([], { VIGIL_TRUST_PROXY: "2" }).trustProxy).toBe(2);
    for (const bad of ["yes", "-1", "1.5", "11"]) expect(() => loadConfig([], { VIGIL_TRUST_PROXY: bad })).toThrow(/Invalid --trust-proxy/);
  });

  test("--block-private-targets takes true or false", () => {
    expect(loadConfig([], {}).blockPrivateTargets).toBe(false);
    expect(loadConfig(["--block-private-targets", "true"], {}).blockPrivateTargets).toBe(true);
    expect(() => loadConfig([], { VIGIL_BLOCK_PRIVATE_TARGETS: "yes" })).toThrow(/Invalid --block-private-targets/);
  });

  test("unknown flags are an error", () => {
    expect(() => loadConfig(["--prot", "1"], {})).toThrow();
  });

  test("the README's configuration table lists every flag", () => {
    const readme = readFileSync(resolve(import.meta.dir, "../README.md"), "utf8");
    const flags = [...helpText().matchAll(/^ {2}(--[a-z-]+) /gm)].map((m) => m[1]).filter((f) => f !== "--help" && f !== "--version");
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) expect({ flag, listed: readme.includes(`\`${flag}\``) }).toEqual({ flag, listed: true });
  });

  test("single sign-on from flags: the provider as a whole, groups split, bad values refused", () => {
    expect(loadConfig([], {}).sso).toEqual({ passwordLogin: undefined });
    const c = loadConfig(["--oidc-issuer", "https://idp.example.com/realms/main/", "--oidc-client-id", "vigil", "--oidc-admin-groups", "ops, admins", "--password-login", "true"], {
      VIGIL_OIDC_CLIENT_SECRET: "s3cret",
      VIGIL_OIDC_NAME: "Keycloak",
    });
    expect(c.sso).toEqual({
      passwordLogin: true,
      provider: {
        enabled: true, name: "Keycloak", issuer: "https://idp.example.com/realms/main", clientId: "vigil", clientSecret: "s3cret",
        scopes: "openid email profile", createAccounts: true, defaultRole: "viewer", groupsClaim: "groups",
        adminGroups: ["ops", "admins"], editorGroups: [], viewerGroups: [],
      },
    });
    expect(() => loadConfig(["--oidc-issuer", "http://idp.example.com", "--oidc-client-id", "v"], {})).toThrow(/https/);
    expect(() => loadConfig(["--oidc-issuer", "https://idp.example.com"], {})).toThrow(/client id/);
    expect(() => loadConfig(["--oidc-issuer", "https://idp.example.com", "--oidc-client-id", "v", "--oidc-role", "owner"], {})).toThrow(/role/);
    expect(() => loadConfig(["--password-login", "maybe"], {})).toThrow(ConfigError);
  });

  test("VIGIL_TEST_MINUTE_MS (hidden, for tests of real processes) shortens a minute of the settings", () => {
    expect(loadConfig([], {}).testMinuteMs).toBeUndefined();
    expect(loadConfig([], { VIGIL_TEST_MINUTE_MS: "2000" }).testMinuteMs).toBe(2000);
    for (const bad of ["99", "60001", "1.5", "soon"]) expect(() => loadConfig([], { VIGIL_TEST_MINUTE_MS: bad })).toThrow(/Invalid VIGIL_TEST_MINUTE_MS/);
    expect(() => loadConfig(["--test-minute-ms", "2000"], {})).toThrow();
    expect(helpText()).not.toContain("MINUTE");
  });

  test("--help lists every flag with its environment variable", () => {
    const help = helpText();
    for (const flag of ["--host", "--port", "--data-dir", "--jwt-secret", "--log-level", "VIGIL_DATA_DIR"]) expect(help).toContain(flag);
  });
});
