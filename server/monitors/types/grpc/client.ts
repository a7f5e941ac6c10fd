// The grpc check itself, loaded by grpc.ts on the first check (grpc-js and protobufjs cost memory only where used):
// one call of grpc.health.v1.Health/Check with @grpc/grpc-js (pure JavaScript over node:http2, which Bun has). SERVING is up; any other answer is down.
//
// The protocol's two messages are declared here as a protobuf JSON descriptor (serialised by protobufjs through
// @grpc/proto-loader) rather than loaded from grpc-health-check, which reads health.proto from disk when imported:
// that file is not in a compiled binary, and the import would throw there.
import { isIP, type Socket } from "node:net";
import type { Static } from "@sinclair/typebox";
import { ChannelCredentials, Client, credentials, Metadata, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { fromJSON, type MethodDefinition } from "@grpc/proto-loader";
import { CHECK_ERROR_TEXT, grpcStatusError, protocolError, timeoutError } from "../../check-errors";
import { describeError } from "../network-errors";
import { reachHost } from "../reach";
import type { SettingsCheckContext, SettingsCheckResult } from "../settings-type";
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
const healthCheck = healthService.Check as unknown as MethodDefinition<{ service: string }, { status: string }>;

/** A health answer is a few bytes: anything much bigger is not one. */
const MAX_REPLY_BYTES = 64 * 1024;

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
function callError(e: ServiceError, seconds: number): string {
  switch (e.code) {
    case GrpcStatus.DEADLINE_EXCEEDED:
      return timeoutError(seconds);
    case GrpcStatus.NOT_FOUND: // the protocol's answer for a service the server does not know
      return grpcStatusError("SERVICE_UNKNOWN");
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

export async function checkGrpc(settings: Settings, ctx: SettingsCheckContext): Promise<SettingsCheckResult> {
  const started = performance.now();
  const seconds = ctx.timeoutMs / 1000;
  const down = (error: string): SettingsCheckResult => ({ up: false, responseTime: null, error });
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
    "grpc.max_receive_message_length": MAX_REPLY_BYTES,
    "grpc.enable_retries": 0,
    // Its own connections, closed with the client (the shared pool keeps them for other clients).
    "grpc.use_local_subchannel_pool": 1,
  });
  try {
    const metadata = new Metadata();
    for (const m of settings.metadata) metadata.add(m.name, m.value);
    const deadline = Date.now() + Math.max(0, ctx.timeoutMs - (performance.now() - started));
    const answer = await new Promise<{ error: ServiceError | null; status?: string }>((resolve) => {
      const call = client.makeUnaryRequest(
        healthCheck.path,
        healthCheck.requestSerialize,
        healthCheck.responseDeserialize,
        { service: settings.service },
        metadata,
        { deadline },
        (error, reply) => {
          ctx.signal.removeEventListener("abort", onAbort);
          resolve({ error: error ?? null, status: reply?.status });
        },
      );
      const onAbort = () => call.cancel();
      ctx.signal.addEventListener("abort", onAbort, { once: true });
    });
    if (ctx.signal.aborted) return down(describeError(ctx.signal.reason, seconds));
    if (answer.error) return down(callError(answer.error, seconds));
    if (answer.status !== "SERVING") return down(grpcStatusError(answer.status ?? "UNKNOWN"));
    return { up: true, responseTime: Math.max(0, Math.round(performance.now() - started)), error: null };
  } finally {
    client.close();
    for (const socket of tracked.sockets) socket.destroy();
  }
}

