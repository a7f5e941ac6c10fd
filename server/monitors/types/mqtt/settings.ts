// The mqtt check's settings (UI-safe: TypeBox only).
import { Type } from "@sinclair/typebox";
import { LIMITS } from "../../public";

export const mqttSettings = Type.Object({
  protocol: Type.Union([Type.Literal("mqtt"), Type.Literal("mqtts"), Type.Literal("ws"), Type.Literal("wss")], {
    default: "mqtt",
    error: "Protocol must be one of mqtt, mqtts, ws, wss",
  }),
  host: Type.String({
    minLength: 1,
    maxLength: LIMITS.hostLength,
    host: true,
    error: "Host must be a host name or an IP address, without scheme, port or path (broker.example.com, 10.0.0.5, ::1)",
  }),
  port: Type.Integer({ default: 1883, minimum: 1, maximum: 65535, error: "Port must be a whole number from 1 to 65535" }),
  // The HTTP path of the WebSocket endpoint (ws and wss only).
  path: Type.String({
    default: "/mqtt",
    minLength: 1,
    maxLength: 500,
    pattern: "^/[\\x21-\\x7E]*$",
    error: "The path starts with / and has no spaces (at most 500 characters)",
  }),
  username: Type.String({ default: "", maxLength: 256, error: "The user name must be at most 256 characters" }),
  password: Type.String({ default: "", maxLength: 1024, secret: true, error: "The password must be at most 1024 characters" }),
  // Wildcards (+ and #) are allowed: the first message on any matching topic counts.
  topic: Type.String({
    minLength: 1,
    maxLength: 500,
    pattern: "^[^\\u0000]+$",
    error: "Topic is required: the topic to wait for a message on (sensors/+/status), at most 500 characters",
  }),
  keyword: Type.String({
    default: "",
    maxLength: LIMITS.keywordLength,
    error: `The keyword must be at most ${LIMITS.keywordLength} characters`,
  }),
  // A JSON assertion on the message, in the http type's language ($.status == "ok").
  jsonPath: Type.String({
    default: "",
    maxLength: LIMITS.jsonPathLength,
    error: `The JSON assertion must be at most ${LIMITS.jsonPathLength} characters`,
  }),
  ignoreTls: Type.Boolean({ default: false, error: "ignoreTls must be true or false" }),
});
