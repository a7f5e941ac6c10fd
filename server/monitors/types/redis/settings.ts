// The redis check's settings (the form and the API read this schema; no driver here).
import { Type } from "@sinclair/typebox";

export const redisSettings = Type.Object({
  host: Type.String({
    host: true,
    minLength: 1,
    maxLength: 253,
    error: "Host must be a host name or an IP address, without scheme, port or path (cache.example.com, 10.0.0.5, ::1)",
  }),
  port: Type.Integer({ default: 6379, minimum: 1, maximum: 65535, error: "Port must be a whole number from 1 to 65535" }),
  username: Type.String({ default: "", maxLength: 128, error: "User name must be at most 128 characters (empty: the default user)" }),
  password: Type.String({ default: "", maxLength: 512, secret: true, error: "Password must be at most 512 characters" }),
  tls: Type.Boolean({ default: false, error: "TLS must be true or false" }),
  ignoreTls: Type.Boolean({ default: false, error: "Ignore TLS errors must be true or false" }),
  database: Type.Integer({ default: 0, minimum: 0, maximum: 15, error: "Database must be a whole number from 0 to 15" }),
  command: Type.String({
    default: "PING",
    minLength: 1,
    maxLength: 1000,
    error: "Command must be 1 to 1 000 characters: a read-only command and its arguments (PING, GET health)",
  }),
  expected: Type.String({ default: "", maxLength: 1000, error: "Expected reply must be at most 1 000 characters" }),
  expectedMatch: Type.Union([Type.Literal("equals"), Type.Literal("contains")], {
    default: "equals",
    error: "Match must be equals or contains",
  }),
});
