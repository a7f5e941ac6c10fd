// The grpc check itself, loaded by grpc.ts on the first check (grpc-js and protobufjs cost memory only where used):
// one call with @grpc/grpc-js (pure JavaScript over node:http2, which Bun has). Health mode calls
// grpc.health.v1.Health/Check: SERVING is up, any other answer down. Unary mode calls the monitor's method
// (proto.ts): an OK reply is up, if its JSON holds the keyword (or, inverted, does not).
//
// The protocol's two messages are declared here as a protobuf JSON descriptor (serialised by protobufjs through
// @grpc/proto-loader) rather than loaded from grpc-health-check, which reads health.proto from disk when imported:
// that file is not in a compiled binary, and the import would throw there.
import { isIP, type Socket } from "node:net";
import type { Static } from "@sinclair/typebox";
import { ChannelCredentials, Client, credentials, Metadata, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { fromJSON, type MethodDefinition } from "@grpc/proto-loader";
import { CHECK_ERROR_TEXT, grpcStatusError, keywordFoundError, keywordMissingError, protocolError, timeoutError } from "../../check-errors";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";
import type { SettingsCheckContext, SettingsCheckResult } from "../settings-type";
import { unaryCall, type UnaryCall } from "./proto";
import { grpcSettings } from "./settings";

type Settings = Static<typeof grpcSettings>;

const HEALTH_PROTO: Parameters<typeof fromJSON>[0] = {
  nested: {
    grpc: {
      nested: {
        health: {
          nested: {
            v1: {
              nested: {
                HealthCheckRequest: { fields: { service: { type: "string", id: 1 } } },
                HealthCheckResponse: {
                  fields: { status: { type: "ServingStatus", id: 1 } },
                  nested: { ServingStatus: { values: { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } } },
                },
                Health: { methods: { Check: { requestType: "HealthCheckRequest", responseType: "HealthCheckResponse", comment: "" } } },
              },
            },
          },
        },
      },
    },
  },
};
const healthService = fromJSON(HEALTH_PROTO, { enums: String, defaults: true })["grpc.health.v1.Health"] as Record<string, MethodDefinition<object, object>>;
const healthCheck = healthService.Check!;

/** A health answer is a few bytes: anything much bigger is not one. A unary reply is read up to 1 MB, as http bodies are. */
const MAX_HEALTH_REPLY_BYTES = 64 * 1024;
const MAX_UNARY_REPLY_BYTES = 1024 * 1024;

/**
 * Channel credentials that remember the sockets their channel opens, so a check closes them even mid-handshake:
 * grpc-js closes a connection still waiting for the server's HTTP/2 settings only once they come, which a server
 * that never answers never sends.
 */
class TrackedCredentials extends ChannelCredentials {
  readonly sockets = new Set<Socket>();
  constructor(private readonly inner: ChannelCredentials) {
    super();
  }
  _isSecure(): boolean {
    return this.inner._isSecure();
  }
  _equals(other: ChannelCredentials): boolean {
    return other === this;
  }
  _createSecureConnector(...args: Parameters<ChannelCredentials["_createSecureConnector"]>): ReturnType<ChannelCredentials["_createSecureConnector"]> {
    const connector = this.inner._createSecureConnector(...args);
    const sockets = this.sockets;
    return {
      async connect(socket) {
        sockets.add(socket);
        const result = await connector.connect(socket);
        sockets.add(result.socket);
        return result;
      },
      waitForReady: () => connector.waitForReady(),
      getCallCredentials: () => connector.getCallCredentials(),
      destroy: () => connector.destroy(),
    };
  }
}

/** A failed call as a sentence: the health answers by name, socket failures as network-errors.ts says them. */
function callError(e: ServiceError, seconds: number, health: boolean): string {
  switch (e.code) {
    case GrpcStatus.DEADLINE_EXCEEDED:
      return timeoutError(seconds);
    case GrpcStatus.NOT_FOUND: // the health protocol's answer for a service the server does not know
      if (health) return grpcStatusError("SERVICE_UNKNOWN");
      break;
    case GrpcStatus.UNAUTHENTICATED:
    case GrpcStatus.PERMISSION_DENIED:
      return CHECK_ERROR_TEXT.AUTH_FAILED;
  }
  const details = e.details ?? "";
  // grpc-js reports a failed connection as UNAVAILABLE with the socket's error in the text.
  const socket = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?)\b/.exec(details);
  if (socket) return describeError({ code: socket[1] }, seconds);
  if (/self[- ]signed certificate/i.test(details)) return CHECK_ERROR_TEXT.TLS_SELF_SIGNED;
  return protocolError("gRPC", `${GrpcStatus[e.code] ?? e.code}: ${details.replace(/\. Resolution note: ?$/, "")}`);
}

/** One unary call, cancelled when the check is stopped: its error or its reply. */
function callOnce(client: Client, call: UnaryCall, metadata: Metadata, deadline: number, signal: AbortSignal): Promise<{ error: ServiceError | null; reply?: object }> {
  return new Promise((resolve) => {
    const pending = client.makeUnaryRequest(call.path, call.serialize, call.deserialize, call.request, metadata, { deadline }, (error, reply) => {
      signal.removeEventListener("abort", onAbort);
      resolve({ error: error ?? null, reply });
    });
    const onAbort = () => pending.cancel();
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export async function checkGrpc(settings: Settings, ctx: SettingsCheckContext): Promise<SettingsCheckResult> {
  const started = performance.now();
  const seconds = ctx.timeoutMs / 1000;
  const down = (error: string): SettingsCheckResult => ({ up: false, responseTime: null, error });
  const unary = settings.mode === "unary";
  let call: UnaryCall;
  try {
    // Checked when the monitor was saved; parsed again here (a check keeps nothing between runs).
    call = unary
      ? unaryCall(settings.proto, settings.method, settings.request)
      : { path: healthCheck.path, serialize: healthCheck.requestSerialize, deserialize: healthCheck.responseDeserialize, request: { service: settings.service } };
  } catch (e) {
    return down(protocolError("gRPC", (e as Error).message));
  }
  const reach = await reachHost(settings.host, ctx.policy, ctx.resolve);
  if (reach.error !== undefined) return down(reach.error);
  if (ctx.signal.aborted) return down(describeError(ctx.signal.reason, seconds));

  const name = isIP(settings.host) === 6 ? `[${settings.host}]` : settings.host;
  const address = isIP(reach.address) === 6 ? `[${reach.address}]` : reach.address;
  const tracked = new TrackedCredentials(
    settings.tls ? credentials.createSsl(null, null, null, { rejectUnauthorized: !settings.ignoreTls }) : credentials.createInsecure(),
  );
  // The channel connects to the address judged; the name stays the call's authority and, over TLS, the name the
  // certificate is checked against.
  const client = new Client(`${address}:${settings.port}`, tracked, {
    "grpc.default_authority": `${name}:${settings.port}`,
    ...(settings.tls && !isIP(settings.host) ? { "grpc.ssl_target_name_override": settings.host } : {}),
    "grpc.max_receive_message_length": unary ? MAX_UNARY_REPLY_BYTES : MAX_HEALTH_REPLY_BYTES,
    "grpc.enable_retries": 0,
    // Its own connections, closed with the client (the shared pool keeps them for other clients).
    "grpc.use_local_subchannel_pool": 1,
  });
  try {
    const metadata = new Metadata();
    for (const m of settings.metadata) metadata.add(m.name, m.value);
    const deadline = Date.now() + Math.max(0, ctx.timeoutMs - (performance.now() - started));
    const answer = await callOnce(client, call, metadata, deadline, ctx.signal);
    if (ctx.signal.aborted) return down(describeError(ctx.signal.reason, seconds));
    if (answer.error) return down(callError(answer.error, seconds, !unary));
    if (unary) {
      const keyword = settings.keyword;
      if (keyword && JSON.stringify(answer.reply ?? {}).includes(keyword) === settings.keywordInvert) {
        return down(settings.keywordInvert ? keywordFoundError(keyword) : keywordMissingError(keyword));
      }
    } else {
      const status = (answer.reply as { status?: string } | undefined)?.status;
      if (status !== "SERVING") return down(grpcStatusError(status ?? "UNKNOWN"));
    }
    return { up: true, responseTime: Math.max(0, Math.round(performance.now() - started)), error: null };
  } finally {
    client.close();
    for (const socket of tracked.sockets) socket.destroy();
  }
}
