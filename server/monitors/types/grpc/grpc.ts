// The grpc check type: one call of the standard health checking protocol, grpc.health.v1.Health/Check, or of a unary
// method described by the monitor's .proto (client.ts does it, loaded on the first check, and proto.ts on the first
// unary monitor, so grpc-js and protobufjs cost memory only where the type is used).
import { isIP } from "node:net";
import type { Static } from "@sinclair/typebox";
import { badRequest } from "../../../http/http-error";
import { literalProblem, type TargetPolicy } from "../../../net/targets";
import { normaliseTargetHost } from "../host";
import type { SettingsCheckType } from "../settings-type";
import { grpcSettings } from "./settings";

type Settings = Static<typeof grpcSettings>;

function normalise(settings: Settings, policy: TargetPolicy): Settings {
  const host = normaliseTargetHost(settings.host);
  const forbidden = literalProblem(host, policy);
  if (forbidden) throw badRequest("TARGET_FORBIDDEN", forbidden);
  // TLS sends the host as the server name (SNI), and Bun's TLS refuses an address there.
  if (settings.tls && isIP(host)) throw badRequest("TLS_NEEDS_NAME", "gRPC over TLS needs a host name, not an IP address (the certificate is checked against the name)");
  if (settings.mode === "unary") {
    if (!settings.method) throw badRequest("INVALID_METHOD", "A unary call needs its method: package.Service/Method");
    const proto = require("./proto") as typeof import("./proto");
    try {
      proto.unaryCall(settings.proto, settings.method, settings.request);
    } catch (e) {
      if (e instanceof proto.ProtoProblem) throw badRequest(e.code, e.message);
      throw e;
    }
  }
  return { ...settings, host, metadata: settings.metadata.map((m) => ({ name: m.name, value: m.value })) };
}

export const grpcType: SettingsCheckType<typeof grpcSettings> = {
  type: "grpc",
  schema: grpcSettings,
  runsOnAgents: false,
  normalise,
  check: async (settings, ctx) => (await import("./client")).checkGrpc(settings, ctx),
  target: (settings) => {
    const path = settings.mode === "unary" ? settings.method : settings.service;
    return `${isIP(settings.host) === 6 ? `[${settings.host}]` : settings.host}:${settings.port}${path ? `/${path}` : ""}`;
  },
};
