// The push check's settings (flat fields on the API, the monitor's settings object in the store; no elysia here).
// Its token stays a column of its own: it is unique and looked up by every call.
import { Type } from "@sinclair/typebox";
import { DEFAULTS, LIMITS } from "../../public";

export const pushSettings = Type.Object({
  pushGrace: Type.Integer({
    description: "Seconds allowed after the interval before a silent push monitor is down (0-3600). Default 60.", default: DEFAULTS.pushGrace,
    minimum: 0,
    maximum: LIMITS.maxPushGrace,
    error: `Grace must be a whole number of seconds from 0 to ${LIMITS.maxPushGrace}`,
  }),
});
