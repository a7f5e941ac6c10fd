// The websocket check's settings (UI-safe: TypeBox only).
import { Type } from "@sinclair/typebox";
import { LIMITS } from "../../public";
import { headerSetting } from "../shared-settings";

/** Headers a WebSocket upgrade sets itself: a monitor cannot replace them. */
export const UPGRADE_HEADERS: readonly string[] = ["connection", "upgrade", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", "content-length", "transfer-encoding"];
export const MAX_WS_HEADERS = 20;
export const MAX_WS_MESSAGE = 64 * 1024;

export const websocketSettings = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: LIMITS.urlLength,
    pattern: "^[wW][sS][sS]?://[^\\s]+$",
    // Only a user:password@ part is a secret (rare, but a URL can carry one).
    secret: "url",
    error: "URL must be a ws:// or wss:// address without spaces (ws://host:port/path)",
  }),
  headers: Type.Array(headerSetting, { default: [], maxItems: MAX_WS_HEADERS, error: `At most ${MAX_WS_HEADERS} headers` }),

  subprotocol: Type.String({
    default: "",
    maxLength: 100,
    pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]*$",
    error: "The subprotocol is one name of letters, digits and !#$%&'*+-.^_`|~ (at most 100 characters)",
  }),
  ignoreTls: Type.Boolean({ default: false, error: "ignoreTls must be true or false" }),
  message: Type.String({
    default: "",
    maxLength: MAX_WS_MESSAGE,
    format: "textarea",
    error: "The message must be text of at most 64 KB",
  }),
  keyword: Type.String({
    default: "",
    maxLength: LIMITS.keywordLength,
    error: `The keyword must be at most ${LIMITS.keywordLength} characters`,
  }),
});
