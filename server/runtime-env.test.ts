// The server's runtime settings (server/runtime-env.ts): the process that serves has them in its environment, under
// the PID it was started as, whether run from source or as the executable (so Bun accepts them: it exits at start on a
// JavaScriptCore option it does not know); an operator's own value stays.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RUNTIME_ENV, missingRuntimeEnv, runtimeEnvSettings } from "./runtime-env";
import { SERVER_RUNTIME_ARGS } from "../scripts/server-runtime";

const NAME = "MIMALLOC_PURGE_HOLES_MIN_INTERVAL";
const GC = "BUN_JSC_useConcurrentGC";
const UNSET = { [NAME]: undefined, [GC]: undefined, VIGIL_NO_REEXEC: undefined };

test("only the settings the environment lacks are added", () => {
  expect(RUNTIME_ENV).toEqual({ [NAME]: "1000", [GC]: "0" });
  expect(missingRuntimeEnv({})).toEqual({ [NAME]: "1000", [GC]: "0" });
  expect(missingRuntimeEnv({ [NAME]: "100" })).toEqual({ [GC]: "0" });
  expect(missingRuntimeEnv({ [NAME]: "100", [GC]: "1" })).toEqual({});
  expect(runtimeEnvSettings({ [GC]: "1" })).toBe(`${NAME}=(Bun's default) ${GC}=1`);
});

test("reading the settings restarts nothing: only main.ts's first import (server/reexec.ts) re-executes", () => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== NAME && k !== GC && k !== "VIGIL_NO_REEXEC") env[k] = v;
  const script = `const m = await import("./server/runtime-env.ts"); console.log(Object.keys(m.RUNTIME_ENV).length, process.env.${NAME} ?? "unset")`;
  const out = Bun.spawnSync([process.execPath, "-e", script], { env, stdout: "pipe", stderr: "pipe" });
  expect(out.stdout.toString().trim()).toBe("2 unset");
});

/** Starts the server, waits for its startup line, and returns that line and the environment of the same PID. */
async function serve(cmd: string[], env: Record<string, string | undefined>) {
  const dir = mkdtempSync(join(tmpdir(), "vigil-runtime-env-"));
  const base: Record<string, string | undefined> = { ...process.env, VIGIL_JWT_SECRET: "runtime-env-test-secret-runtime-env-test-secret", ...env };
  for (const [k, v] of Object.entries(base)) if (v === undefined) delete base[k];
  const proc = Bun.spawn([...cmd, "--port", "0", "--data-dir", dir], { stdout: "pipe", stderr: "pipe", env: base as Record<string, string> });
  try {
    const reader = proc.stdout.getReader();
    const decoder = new TextDecoder();
    let log = "";
    const deadline = Date.now() + 30_000;
    while (!log.includes("listening on") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      log += decoder.decode(value, { stream: true });
    }
    reader.releaseLock();
    const line = log.split("\n").find((l) => l.includes("listening on")) ?? log;
    const environ = Object.fromEntries(
      readFileSync(`/proc/${proc.pid}/environ`, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
    );
    return { line, environ };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

const SOURCE = [process.execPath, ...SERVER_RUNTIME_ARGS, "server/main.ts"];

describe.skipIf(process.platform !== "linux")("the serving process", () => {
  test("has the runtime settings, under the PID it was started as, and says so in its startup line", async () => {
    const { line, environ } = await serve(SOURCE, UNSET);
    expect(environ[NAME]).toBe("1000");
    expect(environ[GC]).toBe("0");
    expect(line).toContain(`runtimeEnv=${NAME}=1000 ${GC}=0`);
  }, 60_000);

  test("keeps an operator's own value", async () => {
    const { line, environ } = await serve(SOURCE, { ...UNSET, [NAME]: "100" });
    expect(environ[NAME]).toBe("100");
    expect(environ[GC]).toBe("0");
    expect(line).toContain(`runtimeEnv=${NAME}=100 ${GC}=0`);
  }, 60_000);

  test("VIGIL_NO_REEXEC=1 runs on Bun's defaults", async () => {
    const { line, environ } = await serve(SOURCE, { ...UNSET, VIGIL_NO_REEXEC: "1" });
    expect(environ[NAME]).toBeUndefined();
    expect(line).toContain(`runtimeEnv=${NAME}=(Bun's default) ${GC}=(Bun's default)`);
  }, 60_000);

  test.skipIf(!existsSync("dist/vigil"))("the executable too (after npm run build)", async () => {
    const { line, environ } = await serve(["dist/vigil"], UNSET);
    expect(environ[NAME]).toBe("1000");
    expect(environ[GC]).toBe("0");
    expect(line).toContain("bunFlags=--smol");
    expect(line).toContain(`runtimeEnv=${NAME}=1000 ${GC}=0`);
  }, 60_000);
});
