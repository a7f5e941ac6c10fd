// The tcp check's settings (flat fields on the API, the monitor's settings object in the store; no elysia here).
import { Type } from "@sinclair/typebox";
import { hostSetting } from "../shared-settings";

export const tcpSettings = Type.Object({
  host: hostSetting,
  // Required, but null until given: the type's rule answers PORT_REQUIRED (tcp.ts).
  port: Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 65535 })], { description: "tcp: 1-65535.", default: null, error: "Port must be a whole number from 1 to 65535" }),
});
