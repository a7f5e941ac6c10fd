// Runs /install.sh for real against a listening server: download (the xz copy, or gzip on a host without xz),
// checksum, registration, systemd unit — installed under a temporary root, with useradd, chown and systemctl replaced by
// recorders and xz wrapped by one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { testApp } from "../test-support";

const ARCH = process.arch === "arm64" ? "arm64" : "x64";
const canRun = process.platform === "linux" && process.getuid?.() === 0 && ["curl", "sha256sum", "xz"].every((cmd) => Bun.which(cmd));
const dir = mkdtempSync(join(tmpdir(), "vigil-install-"));
const agentsDir = join(dir, "agents");
const agentFile = join(agentsDir, `vigil-agent-linux-${ARCH}`);
const fakeBin = join(dir, "bin");
/** The recorder of xz calls (which then runs the real xz). */
const xzBin = join(dir, "xz-bin");
/** Every command install.sh needs but xz: a PATH of this and fakeBin is a host without xz. */
const noXzTools = join(dir, "tools-without-xz");
const calls = join(dir, "calls.log");
const t = await testApp({ config: { tokenTtl: "7d", trustProxy: 0, links: { blog: "", video: "", tempMail: "" }, agentsDir } });
let base = "";
let userToken = "";

beforeAll(async () => {
  if (!canRun) return;
  mkdirSync(agentsDir);
  const build = Bun.spawnSync([process.execPath, "build", "--compile", resolve(import.meta.dir, "../../agent/main.ts"), "--outfile", agentFile]);
  if (build.exitCode !== 0) throw new Error(build.stderr.toString());
  const sha = new Bun.CryptoHasher("sha256").update(readFileSync(agentFile)).digest("hex");
  writeFileSync(`${agentFile}.sha256`, `${sha}  vigil-agent-linux-${ARCH}\n`);
  // The build uses preset 9; the fastest preset makes an equally valid .xz.
  const xz = Bun.spawnSync(["xz", "--compress", "--keep", "-0", "-T2", agentFile]);
  if (xz.exitCode !== 0) throw new Error(xz.stderr.toString());
  mkdirSync(fakeBin);
  for (const cmd of ["useradd", "chown", "systemctl"]) {
    writeFileSync(join(fakeBin, cmd), `#!/bin/sh\necho "${cmd} $*" >> "${calls}"\n`);
    chmodSync(join(fakeBin, cmd), 0o755);
  }
  mkdirSync(xzBin);
  writeFileSync(join(xzBin, "xz"), `#!/bin/sh\necho "xz $*" >> "${calls}"\nexec ${Bun.which("xz")} "$@"\n`);
  chmodSync(join(xzBin, "xz"), 0o755);
  mkdirSync(noXzTools);
  for (const cmd of ["sh", "uname", "id", "mktemp", "curl", "sha256sum", "cut", "install", "rm", "cat", "chmod"]) {
    symlinkSync(Bun.which(cmd)!, join(noXzTools, cmd));
  }
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${t.app.server!.port}`;
  userToken = (await t.signUp("alice")).token;
}, 300_000);

afterAll(async () => {
  await t.app.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the served install.sh under `root` (with a running systemd there unless `systemd: false`), on a host with xz
 * unless `xz: false`. The call log starts empty.
 */
async function install(root: string, extra: string[] = [], { systemd = true, path = fakeBin, xz = true } = {}) {
  const { token } = (await t.call<{ token: string }>("POST", "/api/agents/tokens", { token: userToken })).body;
  if (systemd) mkdirSync(join(root, "run/systemd/system"), { recursive: true });
  const script = join(dir, "install.sh");
  writeFileSync(script, await (await fetch(`${base}/install.sh`)).text());
  writeFileSync(calls, "");
  // Asynchronously: the server answering the script's downloads runs in this process.
  const proc = Bun.spawn([Bun.which("sh")!, script, "--token", token, "--interval", "5", ...extra], {
    env: { ...process.env, PATH: xz ? `${path}:${xzBin}:${process.env.PATH}` : `${path}:${noXzTools}`, VIGIL_INSTALL_ROOT: root },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { exitCode, stdout, stderr, token, calls: readFileSync(calls, "utf8") };
}

/** The sha256 of the agent installed under `root`, and the one the server publishes. */
const installedAndPublished = (root: string) => ({
  installed: new Bun.CryptoHasher("sha256").update(readFileSync(join(root, "usr/local/bin/vigil-agent"))).digest("hex"),
  published: readFileSync(`${agentFile}.sha256`, "utf8").split(" ")[0],
});

/** Runs `body` with the agents dir's xz copy replaced by `bytes` (or removed: null), then puts it back. */
async function withXzCopy<T>(bytes: Uint8Array | null, body: () => Promise<T>): Promise<T> {
  const xz = `${agentFile}.xz`;
  const good = readFileSync(xz);
  if (bytes) writeFileSync(xz, bytes);
  else rmSync(xz);
  try {
    return await body();
  } finally {
    writeFileSync(xz, good);
  }
}

/** Whether a registration token is still unspent (it would register an agent). */
async function unused(token: string) {
  const probe = await t.call("POST", "/api/agents/register", {
    body: { token, name: "probe", host: { hostname: "probe", ips: [], os: "", kernel: "", arch: "x64", uptime: 0, agentVersion: "t" } },
  });
  return probe.status === 201;
}

describe.skipIf(!canRun)("install.sh", () => {
  test("downloads, verifies, registers and installs a systemd unit", async () => {
    const root = join(dir, "root1");
    const run = await install(root, ["--name", "from-installer"]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    // The lighter xz copy, unpacked into exactly the binary the checksum names.
    expect(run.stdout).toContain(`Downloading vigil-agent for linux-${ARCH} from ${base} (xz)`);
    expect(run.calls).toContain("xz --decompress");
    const sums = installedAndPublished(root);
    expect(sums.installed).toBe(sums.published);
    expect(statSync(join(root, "usr/local/bin/vigil-agent")).mode & 0o777).toBe(0o755);
    expect(statSync(join(root, "etc/vigil-agent/agent.json")).mode & 0o777).toBe(0o600);
    const unit = readFileSync(join(root, "etc/systemd/system/vigil-agent.service"), "utf8");
    expect(unit).toContain("User=vigil-agent");
    expect(unit).toContain("ExecStart=/usr/local/bin/vigil-agent run --config /etc/vigil-agent/agent.json --interval 5");
    expect(unit).toContain("ReadWritePaths=/etc/vigil-agent"); // probe-results.json, beside the config
    expect(unit).not.toContain("vgl_");
    const log = run.calls;
    expect(log).toContain("useradd --system --no-create-home --shell /usr/sbin/nologin vigil-agent");
    expect(log).toContain("systemctl daemon-reload");
    expect(log).toContain("systemctl enable --now vigil-agent");
    const agents = await t.call<{ agents: { name: string }[] }>("GET", "/api/agents", { token: userToken });
    expect(agents.body.agents.map((a) => a.name)).toContain("from-installer");
  }, 60_000);

  test("refuses a binary whose checksum does not match", async () => {
    const sums = join(agentsDir, `vigil-agent-linux-${ARCH}.sha256`);
    const good = readFileSync(sums, "utf8");
    writeFileSync(sums, `${"0".repeat(64)}  vigil-agent-linux-${ARCH}\n`);
    try {
      const root = join(dir, "root2");
      const run = await install(root);
      expect(run.exitCode).not.toBe(0);
      expect(run.stderr).toContain("checksum mismatch");
      expect(run.stderr).toContain("To install by hand instead:");
      expect(existsSync(join(root, "usr/local/bin/vigil-agent"))).toBe(false);
    } finally {
      writeFileSync(sums, good);
    }
  }, 60_000);

  test("without xz on the host it takes the gzip transfer, verified by the same checksum", async () => {
    const root = join(dir, "root-no-xz");
    const run = await install(root, [], { xz: false });
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("(gzip; with xz installed the download is lighter)");
    expect(run.calls).not.toMatch(/^xz /m);
    const sums = installedAndPublished(root);
    expect(sums.installed).toBe(sums.published);
  }, 60_000);

  test("a server whose build has no xz copy yet: the gzip transfer, without an error", async () => {
    const root = join(dir, "root-no-xz-copy");
    const run = await withXzCopy(null, () => install(root));
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("No xz copy on the server: downloading it gzip-compressed instead");
    expect(run.calls).not.toContain("xz --decompress");
    expect(existsSync(join(root, "usr/local/bin/vigil-agent"))).toBe(true);
  }, 60_000);

  test("an xz copy this xz cannot unpack (damaged, or filters it is too old for): the gzip transfer", async () => {
    const root = join(dir, "root-bad-xz-copy");
    const run = await withXzCopy(new TextEncoder().encode("not xz at all"), () => install(root));
    expect(run.exitCode).toBe(0);
    expect(run.calls).toContain("xz --decompress");
    expect(run.stdout).toContain("xz could not unpack it: downloading it gzip-compressed instead");
    const sums = installedAndPublished(root);
    expect(sums.installed).toBe(sums.published);
  }, 60_000);

  test("an xz copy that unpacks to anything but the published binary is refused", async () => {
    const other = Bun.spawnSync(["xz", "--compress", "--stdout"], { stdin: new TextEncoder().encode("#!/bin/sh\necho not the agent\n") }).stdout;
    const root = join(dir, "root-bad-xz");
    const run = await withXzCopy(new Uint8Array(other), () => install(root));
    expect(run.exitCode).not.toBe(0);
    expect(run.calls).toContain("xz --decompress");
    expect(run.stderr).toContain("checksum mismatch");
    expect(existsSync(join(root, "usr/local/bin/vigil-agent"))).toBe(false);
  }, 60_000);

  test("without a running systemd it stops before downloading, leaves the token unused and prints the manual steps", async () => {
    const root = join(dir, "root3");
    const run = await install(root, [], { systemd: false });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("systemd is not running");
    expect(run.stderr).toContain("To install by hand instead:");
    expect(run.stderr).toContain(`curl -fsSL --compressed -o vigil-agent ${base}/downloads/vigil-agent-linux-${ARCH}`);
    expect(run.stderr).toContain(`VIGIL_TOKEN=${run.token} ./vigil-agent register --server ${base}`);
    expect(run.stderr).toContain("./vigil-agent run --interval 5");
    expect(existsSync(join(root, "usr/local/bin/vigil-agent"))).toBe(false);
    expect(await unused(run.token)).toBe(true);
  }, 60_000);

  test("not as root it stops before downloading and leaves the token unused", async () => {
    const notRoot = join(dir, "not-root");
    mkdirSync(notRoot, { recursive: true });
    writeFileSync(join(notRoot, "id"), "#!/bin/sh\necho 1000\n");
    chmodSync(join(notRoot, "id"), 0o755);
    const root = join(dir, "root4");
    const run = await install(root, [], { path: `${notRoot}:${fakeBin}` });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("run as root");
    expect(run.stderr).toContain("To install by hand instead:");
    expect(existsSync(join(root, "usr/local/bin/vigil-agent"))).toBe(false);
    expect(await unused(run.token)).toBe(true);
  }, 60_000);

  test("needs a token", async () => {
    const script = join(dir, "install.sh");
    const run = Bun.spawnSync(["sh", script], { env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH}` } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.toString()).toContain("--token is required");
  });
});
