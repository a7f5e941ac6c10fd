// The docker check's settings: which container, and how to reach its engine (the local socket, or TCP with TLS).
import { Type } from "@sinclair/typebox";

/** A PEM block, or nothing. */
const PEM = "^(?:|\\s*-----BEGIN [A-Z0-9 ]+-----[\\s\\S]*-----END [A-Z0-9 ]+-----\\s*)$";
const pem = (what: string, secret?: true) =>
  Type.String({
    default: "",
    maxLength: 16_384,
    pattern: PEM,
    format: "textarea",
    error: `${what} must be a PEM block (-----BEGIN …-----), at most 16 384 characters, or empty`,
    ...(secret ? { secret } : {}),
  });

export const dockerSettings = Type.Object({
  container: Type.String({
    minLength: 1,
    maxLength: 128,
    // Docker's and Podman's container names, or an ID (whole or its first characters).
    pattern: "^[a-zA-Z0-9][a-zA-Z0-9_.-]*$",
    error: "Container must be a container's name or ID (letters, digits, _ . -), at most 128 characters",
  }),
  endpoint: Type.Union([Type.Literal("socket"), Type.Literal("tcp")], {
    default: "socket",
    error: "Endpoint must be socket or tcp",
  }),
  socketPath: Type.String({
    default: "/var/run/docker.sock",
    minLength: 2,
    maxLength: 107, // a Unix socket's path limit
    pattern: "^/\\S*$",
    error: "Socket path must be an absolute path to the engine's Unix socket, at most 107 characters",
  }),
  host: Type.String({
    default: "",
    maxLength: 253,
    host: true,
    error: "Host must be a host name or an IP address, without scheme, port or path",
  }),
  port: Type.Integer({ default: 2376, minimum: 1, maximum: 65535, error: "Port must be a whole number from 1 to 65535" }),
  tls: Type.Boolean({ default: true, error: "TLS must be true or false" }),
  ca: pem("CA certificate"),
  cert: pem("Client certificate"),
  key: pem("Client key", true),
});
