// The websocket check type: an upgrade to ws:// or wss:// (headers, a subprotocol), then optionally one message sent
// and the first message back awaited; up when the upgrade succeeded (101) and the reply holds the keyword, if any.
//
// The client is Bun's built-in implementation of the `ws` package API (import "ws" resolves to it under Bun, nothing
// bundled): unlike the WHATWG WebSocket, it reports the status of a refused upgrade ("unexpected-response").
import { isIP } from "node:net";
import type { Static } from "@sinclair/typebox";
import WebSocket from "ws";
import { badRequest } from "../../../http/http-error";
import { literalHostProblem, type TargetPolicy } from "../../../net/targets";
import { CHECK_ERROR_TEXT, keywordMissingError, noMessageError, protocolError, timeoutError, upgradeRefusedError } from "../../check-errors";
import { clientError } from "../client-error";
import { reachHost } from "../reach";
import { maskUrlPassword, scrub, secretValues, type SettingsCheckContext, type SettingsCheckResult, type SettingsCheckType } from "../settings-type";
import { UPGRADE_HEADERS, websocketSettings } from "./settings";

type Settings = Static<typeof websocketSettings>;

/** A reply is read up to this size; a bigger one fails the check (ws closes with 1009) rather than filling memory. */
const MAX_REPLY_BYTES = 1024 * 1024;

function normalise(settings: Settings, policy: TargetPolicy): Settings {
  const url = settings.url.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest("INVALID_URL", "URL must be a valid ws:// or wss:// address");
  }
  if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") throw badRequest("INVALID_URL", "URL must start with ws:// or wss://");
  if (!parsed.hostname) throw badRequest("INVALID_URL", "URL must name a host");
  // The address as written; a name is resolved and judged again before every check.
  const forbidden = literalHostProblem(url, policy);
  if (forbidden) throw badRequest("TARGET_FORBIDDEN", forbidden);
  for (const h of settings.headers) {
    if (UPGRADE_HEADERS.includes(h.name.toLowerCase())) {
      throw badRequest("RESERVED_HEADER", `The ${h.name} header is set by the WebSocket upgrade and cannot be changed`);
    }
  }
  return { ...settings, url, headers: settings.headers.map((h) => ({ name: h.name, value: h.value })) };
}

/** What the exchange ended with: null (up) or the error sentence. */
type Verdict = string | null;

async function check(settings: Settings, ctx: SettingsCheckContext): Promise<SettingsCheckResult> {
  const started = performance.now();
  const seconds = ctx.timeoutMs / 1000;
  const secrets = secretValues(websocketSettings, settings);
  const down = (error: string): SettingsCheckResult => ({ up: false, responseTime: null, error: scrub(error, secrets) });
  let url: URL;
  try {
    url = new URL(settings.url);
  } catch {
    return down(protocolError("WebSocket", "invalid URL"));
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const reach = await reachHost(host, ctx.policy, ctx.resolve);
  if (reach.error !== undefined) return down(reach.error);
  if (ctx.signal.aborted) return down(clientError(ctx.signal.reason, seconds, "WebSocket", secrets));

  const headers: Record<string, string> = {};
  for (const h of settings.headers) headers[h.name] = h.value;
  const target = new URL(url);
  // ws:// goes to the address judged, the name kept in Host; wss:// keeps the name, which TLS needs to verify the
  // certificate (judged just above, so only a DNS change within these milliseconds could differ).
  if (url.protocol === "ws:" && reach.address !== host) {
    target.hostname = isIP(reach.address) === 6 ? `[${reach.address}]` : reach.address;
    if (!Object.keys(headers).some((name) => name.toLowerCase() === "host")) headers.host = url.host;
  }

  const remaining = Math.max(0, ctx.timeoutMs - (performance.now() - started));
  const ws = new WebSocket(target.href, settings.subprotocol ? [settings.subprotocol] : [], {
    headers,
    rejectUnauthorized: !settings.ignoreTls,
    followRedirects: false,
    perMessageDeflate: false,
    maxPayload: MAX_REPLY_BYTES,
  });
  try {
    const verdict = await new Promise<Verdict>((resolve) => {
      let upgraded = false;
      const settle = (v: Verdict) => {
        clearTimeout(timer);
        ctx.signal.removeEventListener("abort", onAbort);
        resolve(v);
      };
      // Past the upgrade, the time ran out waiting for a message.
      const outOfTime = () => settle(upgraded ? noMessageError(seconds) : timeoutError(seconds));
      const onAbort = () => ((ctx.signal.reason as { name?: string } | undefined)?.name === "TimeoutError" ? outOfTime() : settle(CHECK_ERROR_TEXT.CANCELLED));
      const timer = setTimeout(outOfTime, remaining);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      ws.on("unexpected-response", (_req, res) => settle(upgradeRefusedError(res.statusCode ?? 0)));
      ws.on("open", () => {
        upgraded = true;
        if (!settings.message && !settings.keyword) return settle(null);
        if (settings.message) ws.send(settings.message);
      });
      ws.on("message", (data) => {
        const text = Buffer.isBuffer(data) ? data.toString("utf8") : Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data).toString("utf8");
        settle(settings.keyword && !text.includes(settings.keyword) ? keywordMissingError(settings.keyword) : null);
      });
      ws.on("error", (e) => settle(clientError(e, seconds, "WebSocket", secrets)));
      ws.on("close", (code, reason) => {
        const why = reason.length ? `: ${reason.toString("utf8")}` : "";
        settle(protocolError("WebSocket", `closed by the server (code ${code}${why}) before ${upgraded ? "a message came" : "the upgrade"}`));
      });
    });
    if (verdict !== null) return down(verdict);
    return { up: true, responseTime: Math.max(0, Math.round(performance.now() - started)), error: null };
  } finally {
    ws.removeAllListeners();
    ws.on("error", () => {}); // a late error from the closing socket is not a crash
    ws.terminate();
  }
}

export const websocketType: SettingsCheckType<typeof websocketSettings> = {
  type: "websocket",
  schema: websocketSettings,
  runsOnAgents: false,
  normalise,
  check,
  target: (settings) => maskUrlPassword(settings.url),
};
