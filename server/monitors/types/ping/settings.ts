// The ping check's settings (flat fields on the API, the monitor's settings object in the store; no elysia here).
import { Type } from "@sinclair/typebox";
import { DEFAULTS, LIMITS, PING_FAMILIES } from "../../public";
import { hostSetting, maxResponseTimeSetting } from "../shared-settings";

export const pingSettings = Type.Object({
  host: hostSetting,
  pingCount: Type.Integer({ description: "Echo requests per check, 1-10, 200 ms apart. Default 3.", default: DEFAULTS.pingCount, minimum: 1, maximum: LIMITS.maxPingCount, error: `Packets must be a whole number from 1 to ${LIMITS.maxPingCount}` }),
  pingFamily: Type.Union(
    PING_FAMILIES.map((v) => Type.Literal(v)),
    { description: "Default \"auto\".", default: DEFAULTS.pingFamily, error: `The address family must be one of ${PING_FAMILIES.join(", ")}` },
  ),
  pingLossThreshold: Type.Integer({
    description: "Down when this share of packets (percent, 1-100) or more is lost. Default 100: only when none came back.", default: DEFAULTS.pingLossThreshold,
    minimum: 1,
    maximum: 100,
    error: "The packet loss threshold must be a whole percentage from 1 to 100",
  }),
  /** Limits the average round trip. */
  maxResponseTime: maxResponseTimeSetting,
});
