// Matrix client-server API (https://spec.matrix.org/latest/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid):
// an m.text message with an HTML body, sent as the user whose access token is configured.
import { randomBytes } from "node:crypto";
import { check, fail, requiredText, text } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import type { Provider, SendContext } from "./provider";
import { escapeHtml } from "./telegram";
import { isWebhookUrl } from "./webhook-url";

/** "!opaque:server", or since room version 12 "!opaque" alone; an alias (#room:server) would need resolving first. */
const ROOM_ID = /^![^:\s]+(:\S+)?$/;
/** Events are at most 64 KiB, and the text goes twice (plain and HTML): these stay under it even at 4 bytes a character. */
const MAX_TITLE = 500;
const MAX_LINES = 7000;

interface MatrixAnswer {
  event_id?: string;
  errcode?: string;
  error?: string;
  retry_after_ms?: number;
}

const HOMESERVER_INVALID = "MATRIX_HOMESERVER_INVALID";

/** The homeserver's base URL without a trailing slash; a query, fragment or credentials in it are refused. */
function homeserver(config: Record<string, unknown>): string {
  const value = text(config, "homeserver");
  if (!value) fail(HOMESERVER_INVALID, "Homeserver URL is required");
  if (!isWebhookUrl(value)) fail(HOMESERVER_INVALID, "Homeserver URL must start with http:// or https://");
  const url = new URL(value);
  // The homeserver is shown unmasked, so it must not carry a password.
  if (url.username || url.password || url.search || url.hash) fail(HOMESERVER_INVALID, "Homeserver URL looks like https://matrix.example.org");
  return value.replace(/\/+$/, "");
}

/** postJson with PUT: the same timeout, bounded answer and error handling, only the method differs. */
function putting(ctx: SendContext): SendContext {
  const put = (input: string | URL | Request, init?: RequestInit) => ctx.fetch(input, { ...init, method: "PUT" });
  return { ...ctx, fetch: Object.assign(put, { preconnect: ctx.fetch.preconnect }) as typeof fetch };
}

export const matrix: Provider<"matrix"> = {
  type: "matrix",
  secretFields: ["accessToken"],
  // Homeservers limit each sender (Synapse by default: a burst of 10, then one per 5 s); a 429 says when to retry.
  // Synapse's default: a burst, then one message every 5 s per user.
  perMinute: 12,

  target: (config) => ({ url: config.homeserver }),
  validate: (input) =>
    check(input, (config) => {
      const server = homeserver(config);
      const accessToken = requiredText(config, "accessToken", { code: "MATRIX_TOKEN_REQUIRED", message: "Access token is required" }, true);
      // It goes into a header: one word of printable ASCII.
      if (!/^[\x21-\x7e]+$/.test(accessToken)) fail("VALIDATION", "accessToken must not contain spaces or non-ASCII characters");
      const roomId = text(config, "roomId");
      if (!ROOM_ID.test(roomId)) fail("MATRIX_ROOM_INVALID", "Room id looks like !abc123:example.org (room settings, Advanced), not an alias like #room:example.org");
      return { homeserver: server, accessToken, roomId };
    }),

  async send(config, message, ctx) {
    const title = clip(message.title, MAX_TITLE);
    const lines = clip(message.lines.join("\n"), MAX_LINES);
    const content = {
      msgtype: "m.text",
      body: lines ? `${title}\n${lines}` : title,
      format: "org.matrix.custom.html",
      formatted_body: `<strong>${escapeHtml(title)}</strong>${lines ? `<br>${escapeHtml(lines).replace(/\n/g, "<br>")}` : ""}`,
    };
    // Unique per message: the server takes a repeated id for a retry of the earlier request and posts nothing new.
    const txnId = `vigil-${ctx.now()}-${randomBytes(6).toString("hex")}`;
    const url = `${config.homeserver.replace(/\/+$/, "")}/_matrix/client/v3/rooms/${encodeURIComponent(config.roomId)}/send/m.room.message/${txnId}`;
    const sent = await postJson(putting(ctx), url, content, { headers: { Authorization: `Bearer ${config.accessToken}` }, secrets: [config.accessToken] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as MatrixAnswer | undefined;
    if (success(answer) && typeof reply?.event_id === "string") return OK;
    const retryAfter = reply?.retry_after_ms;
    const extra = {
      retryable: reply?.errcode === "M_LIMIT_EXCEEDED" || undefined,
      retryAfterMs: typeof retryAfter === "number" && retryAfter >= 0 ? Math.round(retryAfter) : undefined,
    };
    if (typeof reply?.error !== "string") return failure(answer, `Matrix: ${describeAnswer(answer)}`, extra);
    const code = typeof reply.errcode === "string" ? ` (${snippet(reply.errcode, 60)})` : "";
    return failure(answer, `Matrix: ${snippet(reply.error)}${code}`, extra);
  },
};
