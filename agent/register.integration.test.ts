// `vigil-agent register` failing the way users meet it, with the release build of the agent (minified, as
// scripts/build-agents.ts makes it): one line on stderr, a non-zero exit, no stack, and the one-time token left
// unspent whenever the failure came before the server was asked.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { selfSignedCert } from "../server/monitors/test-target";
import { testApp } from "../server/test-support";

const ROOT = resolve(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "vigil-agent-reg-"));
const agentBin = join(dir, "vigil-agent");
const t = await testApp();
let server: ReturnType<typeof Bun.serve>;
let base: string;
let session: string;

beforeAll(async () => {
  const build = Bun.spawnSync(
    [process.execPath, "build", "--compile", join(ROOT, "agent/main.ts"), "--minify", "--outfile", agentBin, "--no-compile-autoload-dotenv", "--no-compile-autoload-bunfig"],
    { stderr: "pipe" },
  );
  if (build.exitCode !== 0) throw new Error(build.stderr.toString());
  chmodSync(dir, 0o755); // another user runs it below
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => t.app.handle(req) });
  base = `http://127.0.0.1:${server.port}`;
  session = (await t.signUp("alice")).token;
}, 60_000);

afterAll(() => {
  server?.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const newToken = async () => (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: session })).body.token;
const agentNames = async () => (await t.call<{ agents: { name: string }[] }>("GET", "/api/agents", { token: session })).body.agents.map((a) => a.name);

/** Runs the agent (asynchronously: the server answering it lives in this process). `prefix` runs it as another user. */
async function agent(args: string[], env: Record<string, string> = {}, prefix: string[] = []) {
  const proc = Bun.spawn([...prefix, agentBin, ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, stdout, stderr };
}

/** What every failure must look like: exactly one short line, prefixed, no stack frames or source. */
function expectOneLine(stderr: string) {
  const lines = stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("vigil-agent: ");
  expect(lines[0].length).toBeLessThan(400);
  expect(stderr).not.toMatch(/\n\s+at |node_modules|function\s*\(/);
  return lines[0];
}

/**
 * A user who cannot write their default credential path, as in the report: as root, `nobody` (home /nonexistent);
 * otherwise, this user with a read-only HOME.
 */
function unwritableHome(): { env: Record<string, string>; prefix: string[]; path: string } {
  if (process.getuid?.() === 0) {
    const setpriv = Bun.which("setpriv");
    if (!setpriv) throw new Error("setpriv is needed to run the agent as another user");
    return { env: { HOME: "/nonexistent" }, prefix: [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"], path: "/nonexistent/.config/vigil-agent/agent.json" };
  }
  const home = join(dir, "readonly-home");
  mkdirSync(home, { mode: 0o500 });
  return { env: { HOME: home }, prefix: [], path: join(home, ".config/vigil-agent/agent.json") };
}

test("a credential path it cannot write: one line, exit 1, no agent created, and the token still works", async () => {
  const token = await newToken();
  const user = unwritableHome();
  const failed = await agent(["register", "--server", base, "--name", "ghost-check"], { ...user.env, VIGIL_TOKEN: token }, user.prefix);
  expect(failed.code).toBe(1);
  const line = expectOneLine(failed.stderr);
  expect(line).toContain(`cannot save the credential to ${user.path}: permission denied`);
  expect(line).toContain("--config");
  expect(line).toContain("/etc/vigil-agent/agent.json");
  expect(line).toContain("The token was not used");
  expect(await agentNames()).toEqual([]);

  // The same token, to a path that can be written: accepted, saved 0600 through a rename (no temp file left).
  const config = join(dir, "ok", "agent.json");
  const ok = await agent(["register", "--server", base, "--name", "ghost-check", "--config", config], { VIGIL_TOKEN: token });
  expect([ok.code, ok.stderr]).toEqual([0, ""]);
  expect(ok.stdout).toContain(`credential saved to ${config}`);
  expect(statSync(config).mode & 0o777).toBe(0o600);
  expect(readdirSync(join(dir, "ok"))).toEqual(["agent.json"]);
  expect(JSON.parse(readFileSync(config, "utf8"))).toMatchObject({ server: base, credential: expect.stringMatching(/^vgl_agent_/) });
  expect(await agentNames()).toEqual(["ghost-check"]);
}, 20_000);

test("a bad token and a used one: one line each saying why, exit 1", async () => {
  const config = join(dir, "bad", "agent.json");
  const bad = await agent(["register", "--server", base, "--config", config], { VIGIL_TOKEN: "vgl_reg_not-a-real-token" });
  expect(bad.code).toBe(1);
  expect(expectOneLine(bad.stderr)).toBe("vigil-agent: registration refused (HTTP 401): This registration token is not valid");
  expect(existsSync(config)).toBe(false);
  expect(readdirSync(join(dir, "bad"))).toEqual([]); // the temp file is gone too

  const token = await newToken();
  expect((await agent(["register", "--server", base, "--config", config], { VIGIL_TOKEN: token })).code).toBe(0);
  const used = await agent(["register", "--server", base, "--config", join(dir, "bad", "again.json")], { VIGIL_TOKEN: token });
  expect(used.code).toBe(1);
  expect(expectOneLine(used.stderr)).toContain("This registration token has already been used");
}, 20_000);

test("an unreachable server, a TLS error and a server answering HTML: one line each, the token unspent", async () => {
  const token = await newToken();
  const config = join(dir, "net", "agent.json");
  const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const closedUrl = `http://127.0.0.1:${closed.port}`;
  closed.stop(true);
  const refused = await agent(["register", "--server", closedUrl, "--config", config], { VIGIL_TOKEN: token });
  expect(refused.code).toBe(1);
  expect(expectOneLine(refused.stderr)).toBe(`vigil-agent: cannot reach ${closedUrl}: connection refused (is Vigil running and the port right?)`);

  const cert = selfSignedCert();
  if (cert) {
    const tls = Bun.serve({ hostname: "127.0.0.1", port: 0, tls: cert, fetch: (req) => t.app.handle(req) });
    const failed = await agent(["register", "--server", `https://127.0.0.1:${tls.port}`, "--config", config], { VIGIL_TOKEN: token });
    tls.stop(true);
    expect(failed.code).toBe(1);
    const line = expectOneLine(failed.stderr);
    expect(line).toContain("TLS error (self signed certificate)");
    expect(line).toContain("NODE_EXTRA_CA_CERTS");
  }

  const html = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("<!doctype html><p>Welcome to nginx</p>", { headers: { "content-type": "text/html" } }) });
  const notVigil = await agent(["register", "--server", `http://127.0.0.1:${html.port}`, "--config", config], { VIGIL_TOKEN: token });
  html.stop(true);
  expect(notVigil.code).toBe(1);
  expect(expectOneLine(notVigil.stderr)).toContain(`answered HTTP 200 (text/html), not Vigil's API: check the --server address`);

  expect(existsSync(config)).toBe(false);
  expect((await agent(["register", "--server", base, "--config", config], { VIGIL_TOKEN: token })).code).toBe(0);
}, 30_000);

test("an unexpected error: one line naming the file that holds the full error, exit 70", async () => {
  const errors = join(dir, "tmp");
  mkdirSync(errors);
  // A machine the collector cannot read (no /proc under this root): not a failure the agent knows how to word.
  const crashed = await agent(["register", "--server", base, "--config", join(dir, "crash", "agent.json")], {
    VIGIL_TOKEN: await newToken(),
    VIGIL_PROC_ROOT: join(dir, "no-such-root"),
    TMPDIR: errors,
  });
  expect(crashed.code).toBe(70);
  const line = expectOneLine(crashed.stderr);
  const [file] = readdirSync(errors);
  expect(file).toMatch(/^vigil-agent-error-.*\.log$/);
  expect(line).toStartWith("vigil-agent: unexpected error: ");
  expect(line).toEndWith(`(details in ${join(errors, file)})`);
  expect(readFileSync(join(errors, file), "utf8")).toContain("no-such-root");
  expect(statSync(join(errors, file)).mode & 0o777).toBe(0o600);
}, 20_000);
