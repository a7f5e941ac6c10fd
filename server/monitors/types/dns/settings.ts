// The dns check's settings (flat fields on the API, the monitor's settings object in the store; no elysia here).
import { Type } from "@sinclair/typebox";
import { DEFAULTS, DNS_RECORD_TYPES, LIMITS } from "../../public";
import { hostSetting } from "../shared-settings";

export const RESOLVER_MESSAGE = "Resolver must be an IP address, optionally with a port (9.9.9.9, 127.0.0.1:5353 or [::1]:53)";

export const dnsSettings = Type.Object({
  /** The name looked up. */
  host: hostSetting,
  dnsRecordType: Type.Union(
    DNS_RECORD_TYPES.map((v) => Type.Literal(v)),
    { description: "Default \"A\".", default: DEFAULTS.dnsRecordType, error: `Record type must be one of ${DNS_RECORD_TYPES.join(", ")}` },
  ),
  dnsResolver: Type.Union([Type.Null(), Type.String({ maxLength: LIMITS.resolverLength })], { description: "An IP address, optionally with a port (\"9.9.9.9\", \"127.0.0.1:5353\", \"[::1]:53\"); null = the system's resolver.", default: null, error: RESOLVER_MESSAGE }),
  dnsExpected: Type.Union([Type.Null(), Type.String({ maxLength: LIMITS.dnsExpectedLength })], {
    description: "Up only when one of the answers equals this (case-insensitive; MX answers as \"10 mail.example.com\").", default: null,
    error: `The expected answer must be text of at most ${LIMITS.dnsExpectedLength} characters`,
  }),
});
