// The snmp type's settings: the agent, the version and its credentials, the OID to GET and what its value must be.
// TypeBox only (the UI imports it).
import { Type } from "@sinclair/typebox";

const KEY_ERROR = "A key must be text of at most 256 characters (at least 8 when used)";

export const snmpSettings = Type.Object({
  host: Type.String({
    minLength: 1,
    maxLength: 253,
    host: true,
    error: "Host must be a host name or an IP address, without scheme, port or path (switch.example.com, 10.0.0.5, ::1)",
  }),
  port: Type.Integer({ minimum: 1, maximum: 65535, default: 161, error: "Port must be a whole number from 1 to 65535" }),
  version: Type.Union([Type.Literal("v2c"), Type.Literal("v1"), Type.Literal("v3")], { default: "v2c", error: "Version must be one of: v1, v2c, v3" }),
  // v1 and v2c.
  community: Type.String({ maxLength: 255, default: "public", secret: true, error: "The community must be text of at most 255 characters" }),
  // v3 (USM).
  username: Type.String({ maxLength: 255, default: "", error: "The user name must be text of at most 255 characters" }),
  securityLevel: Type.Union([Type.Literal("authPriv"), Type.Literal("authNoPriv"), Type.Literal("noAuthNoPriv")], {
    default: "authPriv",
    error: "Security level must be one of: authPriv, authNoPriv, noAuthNoPriv",
  }),
  authProtocol: Type.Union([Type.Literal("sha"), Type.Literal("sha256"), Type.Literal("sha512"), Type.Literal("sha224"), Type.Literal("sha384"), Type.Literal("md5")], {
    default: "sha",
    error: "Authentication protocol must be one of: sha, sha224, sha256, sha384, sha512, md5",
  }),
  authKey: Type.String({ maxLength: 256, default: "", secret: true, error: KEY_ERROR }),
  privProtocol: Type.Union([Type.Literal("aes"), Type.Literal("aes256b"), Type.Literal("aes256r"), Type.Literal("des")], {
    default: "aes",
    error: "Privacy protocol must be one of: aes, aes256b, aes256r, des",
  }),
  privKey: Type.String({ maxLength: 256, default: "", secret: true, error: KEY_ERROR }),
  // sysUpTime.0 by default: every agent has it, so a GET of it says the agent answers.
  oid: Type.String({ pattern: "^\\.?[0-2](\\.[0-9]{1,10}){1,127}$", default: "1.3.6.1.2.1.1.3.0", error: "The OID must be numbers separated by dots (1.3.6.1.2.1.1.3.0)" }),
  operator: Type.Union([Type.Literal("=="), Type.Literal("!="), Type.Literal("<"), Type.Literal(">"), Type.Literal("contains")], { default: "==", error: "The operator must be one of: ==, !=, <, >, contains" }),
  // Empty: no comparison (up when the agent returns a value).
  expected: Type.String({ maxLength: 255, default: "", error: "The expected value must be text of at most 255 characters" }),
});
