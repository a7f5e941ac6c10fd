// The settings of the smtp, imap and pop3 types: the same fields, each type with its own security choices and
// default. TypeBox only (the UI imports it).
import { Type } from "@sinclair/typebox";

const MAX_TLS_EXPIRY_DAYS = 365;

const before = {
  host: Type.String({
    minLength: 1,
    maxLength: 253,
    host: true,
    error: "Host must be a host name or an IP address, without scheme, port or path (mail.example.com, 10.0.0.5, ::1)",
  }),
  // null: the protocol's usual port for the security chosen (mailPort in check.ts).
  port: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 65535 })], { default: null, error: "Port must be a whole number from 1 to 65535, or empty" }),
};
const after = {
  ignoreTls: Type.Boolean({ default: false, error: "ignoreTls must be true or false" }),
  username: Type.String({ maxLength: 255, default: "", error: "The user name must be text of at most 255 characters" }),
  password: Type.String({ maxLength: 1024, default: "", secret: true, error: "The password must be text of at most 1024 characters" }),
  keyword: Type.String({ maxLength: 500, default: "", error: "The keyword must be text of at most 500 characters" }),
  tlsExpiryDays: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: MAX_TLS_EXPIRY_DAYS })], {
    default: null,
    error: `TLS expiry warning must be a whole number of days from 1 to ${MAX_TLS_EXPIRY_DAYS}, or empty`,
  }),
};

const SECURITY_ERROR = "Security must be one of: starttls, tls, none";

export const smtpSettings = Type.Object({
  ...before,
  security: Type.Union([Type.Literal("starttls"), Type.Literal("tls"), Type.Literal("none")], { default: "starttls", error: SECURITY_ERROR }),
  ...after,
});

export const imapSettings = Type.Object({
  ...before,
  security: Type.Union([Type.Literal("tls"), Type.Literal("starttls"), Type.Literal("none")], { default: "tls", error: SECURITY_ERROR }),
  ...after,
});

export const pop3Settings = Type.Object({
  ...before,
  // starttls: the STLS command (RFC 2595).
  security: Type.Union([Type.Literal("tls"), Type.Literal("starttls"), Type.Literal("none")], { default: "tls", error: "Security must be one of: tls, starttls, none" }),
  ...after,
});
