// The floor comparison of the monitor benchmark: per variant (plain HTTP keep-alive, HTTPS whose target closes every
// connection, so each check is a fresh TLS handshake), a local target, and the bare-Bun floor (floor.ts) measured
// over the same window as Vigil's run against it. CPU per check is CPU seconds over the window / requests the target
// saw in it, for Vigil and the floor alike.
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { selfSignedCert } from "../../server/monitors/test-target";
import { countingTarget } from "./fixtures";
import { ROOT, cpuSeconds } from "./proc";
import { RUNTIME_ENV } from "../../server/runtime-env";
import { SERVER_RUNTIME_ARGS } from "../server-runtime";

export const VARIANTS = ["plain", "https-close"] as const;
export type Variant = (typeof VARIANTS)[number];
export const FLOOR_MODES = ["batched", "timers"] as const;
export type FloorMode = (typeof FLOOR_MODES)[number];
/**
 * Whose runtime settings a floor runs with: Bun's defaults (the bare floor the targets are set against), or the
 * server's own (its Bun flags and environment: scripts/server-runtime.ts, server/runtime-env.ts), so the
 * difference to Vigil is Vigil's own work alone.
 */
export type FloorSettings = "bun" | "server";
/** The floors each comparison runs: both schedules on Bun's defaults, then the batched one on the server's settings. */
export const FLOOR_RUNS: { mode: FloorMode; settings: FloorSettings }[] = [
  { mode: "batched", settings: "bun" },
  { mode: "timers", settings: "bun" },
  { mode: "batched", settings: "server" },
];

/** A local target the monitors (and the floor) request `${base}/m/${i}` of. */
export interface BenchTarget {
  variant: Variant;
  base: string;
  /** Monitors need "ignore TLS errors" for it (self-signed). */
  insecure: boolean;
  hits(): number;
  /** TCP (TLS) connections accepted; null when not counted. */
  connections(): number | null;
  stop(): void;
}

export function parseVariants(list: string): Variant[] | null {
  const out = list.split(",").map((s) => s.trim()).filter(Boolean);
  return out.every((v): v is Variant => (VARIANTS as readonly string[]).includes(v)) ? (out as Variant[]) : null;
}

/** Plain: Bun.serve keeping connections alive. https-close: node:https answering `Connection: close` (a handshake per check). */
export async function startVariantTarget(variant: Variant): Promise<BenchTarget> {
  if (variant === "plain") {
    const t = countingTarget();
    return { variant, base: `http://127.0.0.1:${t.port}`, insecure: false, hits: t.hits, connections: () => null, stop: t.stop };
  }
  const cert = selfSignedCert(30);
  if (!cert) throw new Error("the https-close variant needs openssl for its self-signed certificate");
  let hits = 0;
  let connections = 0;
  const server = createServer({ cert: cert.cert, key: cert.key }, (_req, res) => {
    hits++;
    res.setHeader("connection", "close");
    res.end("ok");
  });
  server.on("secureConnection", () => connections++);
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, resolve));
  const port = (server.address() as AddressInfo).port;
  return { variant, base: `https://127.0.0.1:${port}`, insecure: true, hits: () => hits, connections: () => connections, stop: () => void server.close() };
}

export interface FloorFigures {
  mode: FloorMode;
  settings: FloorSettings;
  cpuSeconds: number;
  requests: number;
  elapsed: number;
  failed: number;
}

/** Runs the floor against `target` for warm-up + duration and measures its CPU over the duration. */
export async function runFloor(target: BenchTarget, n: number, mode: FloorMode, settings: FloorSettings, warmup: number, duration: number): Promise<FloorFigures> {
  // Bun's defaults: none of the server's runtime settings, even when this process was given them.
  const env = { ...process.env };
  for (const name of Object.keys(RUNTIME_ENV)) delete env[name];
  const proc = Bun.spawn(
    [process.execPath, ...(settings === "server" ? SERVER_RUNTIME_ARGS : []), join(ROOT, "scripts/bench/floor.ts"), "--base", target.base, "--n", String(n), "--mode", mode, "--seconds", String(warmup + duration + 2), ...(target.insecure ? ["--insecure"] : [])],
    { stdout: "pipe", stderr: "inherit", env: settings === "server" ? { ...env, ...RUNTIME_ENV } : env },
  );
  try {
    await Bun.sleep(warmup * 1000);
    const cpuA = cpuSeconds(proc.pid);
    const hitsA = target.hits();
    const tA = performance.now();
    await Bun.sleep(duration * 1000);
    const cpuB = cpuSeconds(proc.pid);
    const hitsB = target.hits();
    const elapsed = (performance.now() - tA) / 1000;
    await proc.exited;
    const summary = JSON.parse((await new Response(proc.stdout).text()).trim().split("\n").pop() || "{}") as { failed?: number };
    return { mode, settings, cpuSeconds: cpuB - cpuA, requests: hitsB - hitsA, elapsed, failed: summary.failed ?? 0 };
  } finally {
    if (proc.exitCode === null) proc.kill("SIGKILL");
  }
}

/** CPU milliseconds per request, or null without requests. */
export const perRequestMs = (cpuSeconds: number, requests: number) => (requests > 0 ? (cpuSeconds / requests) * 1000 : null);
