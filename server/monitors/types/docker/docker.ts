// The docker check type: one container's state, read from the Docker (or Podman) engine API by the server — over the
// engine's Unix socket, or TCP (TLS with a client certificate, as `dockerd --tlsverify` wants). Up when the container
// runs and, if it has a healthcheck, is not unhealthy. A healthcheck still "starting" counts as up: Docker says
// starting only before the first passing probe (or within start_period), and turns it to unhealthy once the probes
// fail past their retries, so a deploy does not page anyone and a container that never gets healthy still does.
import type { Static } from "@sinclair/typebox";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { badRequest } from "../../../http/http-error";
import { literalProblem, type TargetPolicy } from "../../../net/targets";
import {
  CHECK_ERROR_TEXT,
  containerNotFoundError,
  containerStateError,
  containerUnhealthyError,
  protocolError,
  timeoutError,
} from "../../check-errors";
import { normaliseTargetHost } from "../host";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";
import { scrub, secretValues, type SettingsCheckContext, type SettingsCheckResult, type SettingsCheckType } from "../settings-type";
import { engineHealth, engineJson, engineMessage, unixGet, type EngineInspect } from "./engine";
import { dockerSettings } from "./settings";

export type DockerSettings = Static<typeof dockerSettings>;

// The engine's socket is the server's own: an instance that refuses local and private targets refuses it too.
const LOCAL_SOCKET = "the engine's Unix socket is local, which this instance does not allow as a target";

const bracketed = (address: string) => (address.includes(":") ? `[${address}]` : address);

/** The inspect request: over the socket, or to the address the policy allowed (TLS still checks the host's name). */
async function inspect(s: DockerSettings, ctx: SettingsCheckContext, signal: AbortSignal): Promise<Response | { error: string }> {
  const path = `/containers/${encodeURIComponent(s.container)}/json`;
  if (s.endpoint === "socket") {
    if (!ctx.policy.allowPrivate) return { error: `Target refused: ${LOCAL_SOCKET}` };
    return unixGet(s.socketPath, path, signal, false);
  }
  const reach = await reachHost(s.host, ctx.policy, ctx.resolve);
  if (reach.error !== undefined) return { error: reach.error };
  const url = `${s.tls ? "https" : "http"}://${bracketed(reach.address)}:${s.port}${path}`;
  if (!s.tls) return fetch(url, { signal, redirect: "manual", keepalive: false });
  const problem = tlsProblem(s);
  if (problem) return { error: protocolError("Docker", problem) };
  const tls = {
    ...(s.ca ? { ca: s.ca } : {}),
    ...(s.cert && s.key ? { cert: s.cert, key: s.key } : {}),
    ...(reach.address !== s.host ? { serverName: s.host } : {}),
  };
  return fetch(url, { signal, redirect: "manual", keepalive: false, tls } as RequestInit);
}

/**
 * What is wrong with the TLS material, in fixed words (never the PEM text): Bun's fetch reports a key it cannot read
 * as "FailedToOpenSocket", which would send the user looking at the network.
 */
function tlsProblem(s: DockerSettings): string | null {
  if (!s.cert !== !s.key) return "Client certificate and client key go together: set both or neither";
  try {
    for (const pem of s.ca.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []) new X509Certificate(pem);
  } catch {
    return "the CA certificate is not a valid PEM certificate";
  }
  if (!s.cert) return null;
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(s.cert);
  } catch {
    return "the client certificate is not a valid PEM certificate";
  }
  try {
    if (!cert.checkPrivateKey(createPrivateKey(s.key))) return "the client key does not belong to the client certificate";
  } catch {
    return "the client key is not a valid PEM private key";
  }
  return null;
}

/** A failed request as a sentence: the socket's own troubles named, the rest as network errors. */
function requestError(e: unknown, s: DockerSettings, seconds: number): string {
  const code = String((e as { code?: unknown })?.code ?? "");
  if (s.endpoint === "socket" && code === "ENOENT") return protocolError("Docker", `no socket at ${s.socketPath}`);
  if (s.endpoint === "socket" && (code === "EACCES" || code === "EPERM")) {
    return protocolError("Docker", `permission denied on ${s.socketPath}: add Vigil's user to the docker group`);
  }
  return describeError(e, seconds);
}

/** What an inspect document says about the container; null when it is up. */
function verdict(name: string, doc: EngineInspect | null): string | null {
  const state = doc?.State?.Status;
  if (typeof state !== "string" || !state) return protocolError("Docker", "the engine's reply has no container state");
  if (state !== "running") return containerStateError(name, state.slice(0, 32));
  return engineHealth(doc?.State?.Health?.Status) === "unhealthy" ? containerUnhealthyError(name) : null;
}

async function checkDocker(s: DockerSettings, ctx: SettingsCheckContext): Promise<SettingsCheckResult> {
  const seconds = ctx.timeoutMs / 1000;
  const secrets = secretValues(dockerSettings, s);
  const down = (error: string, responseTime: number | null = null): SettingsCheckResult => ({ up: false, responseTime, error: scrub(error, secrets) });
  const timer = AbortSignal.timeout(ctx.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timer]);
  const started = performance.now();
  try {
    const res = await inspect(s, ctx, signal);
    if (!(res instanceof Response)) return down(res.error);
    const { status, body } = await engineJson<EngineInspect>(res);
    const ms = Math.max(0, Math.round(performance.now() - started));
    if (status === 404) return down(containerNotFoundError(s.container), ms);
    if (status === 401 || status === 403) return down(CHECK_ERROR_TEXT.AUTH_FAILED, ms);
    if (status !== 200) return down(protocolError("Docker", `HTTP ${status}${engineMessage(body) ? `: ${engineMessage(body)}` : ""}`), ms);
    const error = verdict(s.container, body);
    return error ? down(error, ms) : { up: true, responseTime: ms, error: null };
  } catch (e) {
    if (timer.aborted || (ctx.signal.aborted && (ctx.signal.reason as Error | undefined)?.name === "TimeoutError")) return down(timeoutError(seconds));
    if (ctx.signal.aborted) return down(CHECK_ERROR_TEXT.CANCELLED);
    return down(requestError(e, s, seconds));
  }
}

export const dockerType: SettingsCheckType<typeof dockerSettings> = {
  type: "docker",
  schema: dockerSettings,
  runsOnAgents: false,
  normalise(settings, policy: TargetPolicy) {
    if (settings.endpoint === "socket") {
      if (!policy.allowPrivate) throw badRequest("TARGET_FORBIDDEN", LOCAL_SOCKET);
      return settings;
    }
    if (!settings.host.trim()) throw badRequest("INVALID_HOST", "Host is required for a TCP endpoint");
    const host = normaliseTargetHost(settings.host);
    const problem = literalProblem(host, policy);
    if (problem) throw badRequest("TARGET_FORBIDDEN", problem);
    const tls = settings.tls ? tlsProblem(settings) : null;
    if (tls) throw badRequest("INVALID_CLIENT_CERT", tls.charAt(0).toUpperCase() + tls.slice(1));
    return { ...settings, host };
  },
  check: checkDocker,
  target: (s) => (s.endpoint === "socket" ? s.container : `${s.container} @ ${bracketed(s.host)}:${s.port}`),
};
