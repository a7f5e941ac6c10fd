// The ntp type's settings: the server to ask and the limits its answer must keep. TypeBox only (the UI imports it).
import { Type } from "@sinclair/typebox";

export const ntpSettings = Type.Object({
  host: Type.String({
    minLength: 1,
    maxLength: 253,
    host: true,
    error: "Host must be a host name or an IP address, without scheme, port or path (pool.ntp.org, 10.0.0.5, ::1)",
  }),
  port: Type.Integer({ minimum: 1, maximum: 65535, default: 123, error: "Port must be a whole number from 1 to 65535" }),
  // Public servers are stratum 1–3 and a LAN relay one more; a server that lost its sources falls back far lower.
  maxStratum: Type.Integer({ minimum: 1, maximum: 15, default: 4, error: "Highest stratum must be a whole number from 1 to 15" }),
  maxOffsetMs: Type.Integer({
    minimum: 1,
    maximum: 3_600_000,
    default: 1000,
    error: "Largest clock offset must be a whole number of milliseconds from 1 to 3 600 000",
  }),
});
