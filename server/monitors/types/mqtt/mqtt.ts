// The mqtt check type: connect to a broker (mqtt, mqtts, or over ws / wss) with the `mqtt` package, subscribe to a
// topic and wait for one message (a retained one comes at once); up when it came and holds the keyword and passes
// the JSON assertion, if any.
import { isIP } from "node:net";
import type { Static } from "@sinclair/typebox";
import type { IClientOptions, MqttClient } from "mqtt";

// Loaded on the first check, not at start-up: the client library costs memory only where the type is used.
const mqtt = (): typeof import("mqtt") => require("mqtt");
import { badRequest } from "../../../http/http-error";
import { literalProblem, type TargetPolicy } from "../../../net/targets";
import { CHECK_ERROR_TEXT, noMessageError, protocolError, timeoutError } from "../../check-errors";
import { clientError } from "../client-error";
import { normaliseTargetHost } from "../host";
import { bodyAssertionError } from "../http/http";
import { JsonPathError, parseJsonAssertion } from "../http/json-path";
import { reachHost } from "../reach";
import { scrub, secretValues, type SettingsCheckContext, type SettingsCheckResult, type SettingsCheckType } from "../settings-type";
import { mqttSettings } from "./settings";

type Settings = Static<typeof mqttSettings>;

/** CONNACK codes for a refused login: 3.1.1's 4 and 5, MQTT 5's 134 (bad user name or password) and 135. */
const AUTH_CODES = new Set([4, 5, 134, 135]);
/** Over WebSocket, a frame bigger than this fails the check rather than filling memory. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

function normalise(settings: Settings, policy: TargetPolicy): Settings {
  const host = normaliseTargetHost(settings.host);
  const forbidden = literalProblem(host, policy);
  if (forbidden) throw badRequest("TARGET_FORBIDDEN", forbidden);
  const jsonPath = settings.jsonPath.trim();
  if (jsonPath) {
    try {
      parseJsonAssertion(jsonPath);
    } catch (e) {
      if (e instanceof JsonPathError) throw badRequest("INVALID_JSON_PATH", e.message);
      throw e;
    }
  }
  return { ...settings, host, jsonPath };
}

/** The client's options: the address judged for plain connections, the name where TLS checks a certificate. */
function clientOptions(settings: Settings, address: string, remainingMs: number): IClientOptions {
  const tls = settings.protocol === "mqtts" || settings.protocol === "wss";
  const host = tls ? settings.host : address;
  const bracketed = isIP(host) === 6 ? `[${host}]` : host;
  const name = isIP(settings.host) === 6 ? `[${settings.host}]` : settings.host;
  const web = settings.protocol === "ws" || settings.protocol === "wss";
  return {
    protocol: settings.protocol,
    // ws builds a URL from hostname (an IPv6 address needs its brackets there); TCP and TLS take the bare address.
    host,
    hostname: web ? bracketed : host,
    port: settings.port,
    ...(web ? { path: settings.path, wsOptions: { headers: { host: `${name}:${settings.port}` }, maxPayload: MAX_MESSAGE_BYTES } } : {}),
    ...(tls && !isIP(settings.host) ? { servername: settings.host } : {}),
    rejectUnauthorized: !settings.ignoreTls,
    ...(settings.username ? { username: settings.username } : {}),
    ...(settings.password ? { password: settings.password } : {}),
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: Math.max(1, remainingMs),
    keepalive: 0,
    protocolVersion: 4,
  };
}

async function check(settings: Settings, ctx: SettingsCheckContext): Promise<SettingsCheckResult> {
  const started = performance.now();
  const seconds = ctx.timeoutMs / 1000;
  const secrets = secretValues(mqttSettings, settings);
  const down = (error: string): SettingsCheckResult => ({ up: false, responseTime: null, error: scrub(error, secrets) });
  const reach = await reachHost(settings.host, ctx.policy, ctx.resolve);
  if (reach.error !== undefined) return down(reach.error);
  if (ctx.signal.aborted) return down(clientError(ctx.signal.reason, seconds, "MQTT", secrets));

  const remaining = Math.max(0, ctx.timeoutMs - (performance.now() - started));
  let client: MqttClient | undefined;
  try {
    const message = await new Promise<{ error: string } | { payload: Buffer }>((resolve) => {
      let subscribed = false;
      const settle = (v: { error: string } | { payload: Buffer }) => {
        clearTimeout(timer);
        ctx.signal.removeEventListener("abort", onAbort);
        resolve(v);
      };
      // Once subscribed, the time ran out waiting for a message.
      const outOfTime = () => settle({ error: subscribed ? noMessageError(seconds) : timeoutError(seconds) });
      const onAbort = () => ((ctx.signal.reason as { name?: string } | undefined)?.name === "TimeoutError" ? outOfTime() : settle({ error: CHECK_ERROR_TEXT.CANCELLED }));
      const timer = setTimeout(outOfTime, remaining);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      client = mqtt().connect(clientOptions(settings, reach.address, remaining));
      client.on("connect", () => {
        client!.subscribe(settings.topic, { qos: 0 }, (error, granted) => {
          if (error) return settle({ error: protocolError("MQTT", error.message) });
          // 0x80 in a SUBACK: the broker refused the subscription (an ACL, a bad filter). Mosquitto grants a denied
          // 3.1.1 subscription and then sends nothing: that reads as no message.
          if (granted?.some((g) => g.qos >= 0x80)) return settle({ error: protocolError("MQTT", `subscription to ${JSON.stringify(settings.topic)} refused`) });
          subscribed = true;
        });
      });
      client.on("message", (_topic, payload) => settle({ payload }));
      client.on("error", (e) => {
        const code = (e as { code?: unknown }).code;
        settle({ error: typeof code === "number" && AUTH_CODES.has(code) ? CHECK_ERROR_TEXT.AUTH_FAILED : clientError(e, seconds, "MQTT", secrets) });
      });
      client.on("close", () => settle({ error: protocolError("MQTT", `the broker closed the connection before ${subscribed ? "a message came" : "the subscription"}`) }));
    });
    if ("error" in message) return down(message.error);
    const failed = bodyAssertionError({ keyword: settings.keyword || null, keywordCaseSensitive: true, jsonPath: settings.jsonPath || null }, message.payload);
    if (failed) return down(failed);
    return { up: true, responseTime: Math.max(0, Math.round(performance.now() - started)), error: null };
  } finally {
    if (client) {
      client.removeAllListeners();
      client.on("error", () => {}); // a late error from the closing socket is not a crash
      client.end(true);
    }
  }
}

export const mqttType: SettingsCheckType<typeof mqttSettings> = {
  type: "mqtt",
  schema: mqttSettings,
  runsOnAgents: false,
  normalise,
  check,
  // "mqtt://broker.example.com:1883 sensors/+/status"
  target: (settings) =>
    `${settings.protocol}://${isIP(settings.host) === 6 ? `[${settings.host}]` : settings.host}:${settings.port}${settings.protocol === "ws" || settings.protocol === "wss" ? settings.path : ""} ${settings.topic}`,
};
