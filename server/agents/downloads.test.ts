import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testApp } from "../test-support";

const dir = mkdtempSync(join(tmpdir(), "vigil-downloads-"));
const binary = new Uint8Array(50_000).map((_, i) => i % 7);
const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
const xz = Bun.spawnSync(["xz", "--compress", "--stdout"], { stdin: binary }).stdout;
writeFileSync(join(dir, "vigil-agent-linux-x64"), binary);
writeFileSync(join(dir, "vigil-agent-linux-x64.gz"), Bun.gzipSync(binary));
writeFileSync(join(dir, "vigil-agent-linux-x64.sha256"), `${sha256(binary)}  vigil-agent-linux-x64\n`);
writeFileSync(join(dir, "vigil-agent-linux-x64.xz"), xz);
writeFileSync(join(dir, "vigil-agent-linux-x64.xz.sha256"), `${sha256(xz)}  vigil-agent-linux-x64.xz\n`);
writeFileSync(join(dir, "secret.txt"), "not for download");
writeFileSync(join(dir, "vigil-agent-linux-arm64"), binary); // no checksum beside it: not offered
writeFileSync(join(dir, "vigil-agent-darwin-x64"), binary); // with a checksum but no xz copy: offered without one
writeFileSync(join(dir, "vigil-agent-darwin-x64.sha256"), `${sha256(binary)}  vigil-agent-darwin-x64\n`);
writeFileSync(join(dir, "vigil-agent-darwin-x64.xz"), xz); // an xz copy without its checksum: not offered
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { tokenTtl: "7d", trustProxy: 0, links: { blog: "", video: "", tempMail: "" }, agentsDir: dir };
const { app } = await testApp({ config: base });
const get = (path: string, headers: Record<string, string> = {}, host = "http://localhost") =>
  app.handle(new Request(host + path, { headers }));

describe("agent downloads", () => {
  test("the targets on offer are the builds present with their checksum, and their xz copy when it has one", async () => {
    const res = await get("/api/agents/targets");
    expect(await res.json()).toEqual({
      success: true,
      targets: [
        { os: "darwin", arch: "x64", file: "vigil-agent-darwin-x64", bytes: 50_000, xz: null },
        { os: "linux", arch: "x64", file: "vigil-agent-linux-x64", bytes: 50_000, xz: { file: "vigil-agent-linux-x64.xz", bytes: xz.byteLength } },
      ],
    });
  });

  test("the binary, gzip on the wire when accepted, and its sha256", async () => {
    const gz = await get("/downloads/vigil-agent-linux-x64", { "accept-encoding": "gzip" });
    expect(gz.status).toBe(200);
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer()))).toEqual(binary);
    const plain = await get("/downloads/vigil-agent-linux-x64");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(new Uint8Array(await plain.arrayBuffer())).toEqual(binary);
    const sha = await (await get("/downloads/vigil-agent-linux-x64.sha256")).text();
    expect(sha).toBe(`${sha256(binary)}  vigil-agent-linux-x64\n`);
  });

  test("the xz copy as is (never gzip on top), with its own sha256; it unpacks to the binary the .sha256 names", async () => {
    // Over a real socket: the length is what the HTTP server puts on the wire.
    const server = (await testApp({ config: base })).app.listen({ hostname: "127.0.0.1", port: 0 });
    const res = await fetch(`http://127.0.0.1:${server.server!.port}/downloads/vigil-agent-linux-x64.xz`, { headers: { "accept-encoding": "gzip" } });
    const body = new Uint8Array(await res.arrayBuffer());
    await server.stop();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-xz");
    expect(res.headers.get("content-length")).toBe(String(xz.byteLength));
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="vigil-agent-linux-x64.xz"');
    expect(body).toEqual(new Uint8Array(xz));
    const [xzSum, xzName] = (await (await get("/downloads/vigil-agent-linux-x64.xz.sha256")).text()).trim().split(/\s+/);
    expect({ xzSum, xzName }).toEqual({ xzSum: sha256(body), xzName: "vigil-agent-linux-x64.xz" });
    const unpacked = Bun.spawnSync(["xz", "--decompress", "--stdout"], { stdin: body }).stdout;
    const [binarySum] = (await (await get("/downloads/vigil-agent-linux-x64.sha256")).text()).split(" ");
    expect(sha256(unpacked)).toBe(binarySum!);
  });

  test.each(["vigil-agent-linux-mips", "secret.txt", "..%2Fsecret.txt", "vigil-agent-darwin-arm64", "vigil-agent-linux-arm64.xz", "vigil-agent-linux-x64.gz", "vigil-agent-linux-x64.xz.gz"])("%s is a 404", async (name) => {
    const res = await get(`/downloads/${name}`);
    expect(res.status).toBe(404);
  });
});

describe("install.sh", () => {
  test("carries this server's address and verifies the checksum", async () => {
    const res = await get("/install.sh", {}, "http://vigil.example:3000");
    expect(res.headers.get("content-type")).toContain("shellscript");
    const script = await res.text();
    expect(script).toStartWith("#!/bin/sh");
    expect(script).toContain('SERVER="http://vigil.example:3000"');
    expect(script).not.toContain("__SERVER__");
    expect(script).toContain("sha256sum");
    expect(script).toContain("User=vigil-agent");
    // The token travels in the environment, not on a command line.
    expect(script).toContain('VIGIL_TOKEN="$TOKEN"');
  });

  test("uses --public-url when set, and X-Forwarded-* only behind a trusted proxy", async () => {
    const pub = await testApp({ config: { ...base, publicUrl: "https://vigil.example.com/" } });
    expect(await (await pub.app.handle(new Request("http://localhost/install.sh"))).text()).toContain('SERVER="https://vigil.example.com"');
    const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "status.example.org" };
    expect(await (await get("/install.sh", headers)).text()).toContain('SERVER="http://localhost"');
    const proxied = await testApp({ config: { ...base, trustProxy: 1 } });
    expect(await (await proxied.app.handle(new Request("http://localhost/install.sh", { headers }))).text()).toContain(
      'SERVER="https://status.example.org"',
    );
  });

  test("is valid POSIX shell", async () => {
    const script = await (await get("/install.sh")).text();
    const file = join(dir, "install.sh");
    writeFileSync(file, script);
    const check = Bun.spawnSync(["sh", "-n", file]);
    expect(check.exitCode).toBe(0);
  });
});
