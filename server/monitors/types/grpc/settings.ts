// The grpc check's settings (UI-safe: TypeBox only).
import { Type } from "@sinclair/typebox";
import { LIMITS } from "../../public";

export const MAX_GRPC_METADATA = 20;
export const MAX_GRPC_PROTO = 64 * 1024;
export const MAX_GRPC_REQUEST = 64 * 1024;

export const grpcSettings = Type.Object({
  host: Type.String({
    minLength: 1,
    maxLength: LIMITS.hostLength,
    host: true,
    error: "Host must be a host name or an IP address, without scheme, port or path (api.example.com, 10.0.0.5, ::1)",
  }),
  port: Type.Integer({ minimum: 1, maximum: 65535, error: "Port is required: a whole number from 1 to 65535" }),
  // health: grpc.health.v1.Health/Check; unary: the method below, described by the .proto below.
  mode: Type.Union([Type.Literal("health"), Type.Literal("unary")], { default: "health", error: "Mode must be health or unary" }),
  // The health checking protocol's service name; "" asks about the server as a whole.
  service: Type.String({
    default: "",
    maxLength: 200,
    pattern: "^[\\x21-\\x7E]*$",
    error: "The service is a name without spaces (grpc.health.v1.Health, my.package.Service) of at most 200 characters, or empty for the whole server",
  }),
  // The unary call (mode "unary"): normalise parses the proto and checks the method and the request against it.
  proto: Type.String({
    default: "",
    maxLength: MAX_GRPC_PROTO,
    format: "textarea",
    error: "The .proto must be text of at most 64 KB",
  }),
  method: Type.String({
    default: "",
    maxLength: 300,
    pattern: "^((?:[A-Za-z_][A-Za-z0-9_]*\\.)*[A-Za-z_][A-Za-z0-9_]*/[A-Za-z_][A-Za-z0-9_]*)?$",
    error: "The method is package.Service/Method (shop.v1.Orders/Get), at most 300 characters",
  }),
  request: Type.String({
    default: "{}",
    maxLength: MAX_GRPC_REQUEST,
    format: "textarea",
    error: "The request must be JSON text of at most 64 KB",
  }),
  // Looked for in the reply's JSON (as the http type's keyword and keywordInvert).
  keyword: Type.String({
    default: "",
    maxLength: LIMITS.keywordLength,
    error: `The keyword must be at most ${LIMITS.keywordLength} characters`,
  }),
  keywordInvert: Type.Boolean({ default: false, error: "keywordInvert must be true or false" }),
  tls: Type.Boolean({ default: false, error: "tls must be true or false" }),
  ignoreTls: Type.Boolean({ default: false, error: "ignoreTls must be true or false" }),
  metadata: Type.Array(
    Type.Object(
      {
        // gRPC metadata keys: lower-case letters, digits, - _ and . (binary "-bin" keys are not offered).
        name: Type.String({
          minLength: 1,
          maxLength: LIMITS.headerNameLength,
          pattern: "^[0-9a-z_.-]+$",
          error: "Metadata keys may only contain lower-case letters, digits, -, _ and .",
        }),
        value: Type.String({
          maxLength: LIMITS.headerValueLength,
          pattern: "^[\\x20-\\x7E]*$",
          error: `Metadata values must be printable ASCII text of at most ${LIMITS.headerValueLength} characters`,
        }),
      },
      { error: "Each metadata entry needs a key and a value" },
    ),
    { default: [], maxItems: MAX_GRPC_METADATA, error: `At most ${MAX_GRPC_METADATA} metadata entries` },
  ),
});
