// Home Assistant (https://developers.home-assistant.io/docs/api/rest/): POST /api/services/notify/{service} with a
// long-lived access token. The companion apps' services (mobile_app_…, and "notify", which reaches them) also get
// data: a tag per target so the recovery replaces the down notification on the phone, and for a problem the
// platforms' urgent delivery. Other notify platforms get the title and message alone (their data means other things).
import { check, fail, requiredText, text } from "./fields";
import { describeAnswer, failure, OK, postJson, snippet, success } from "./http";
import { headerSafe, serverUrl, titleAndBody } from "./ntfy";
import { dedupKey } from "./pagerduty";
import type { NotificationMessage, Provider } from "./provider";

/** A Home Assistant service name: lower-case letters, digits, _. */
const SERVICE = /^[a-z0-9_]{1,100}$/;
const DEFAULT_SERVICE = "notify";

interface HomeAssistantAnswer {
  message?: unknown;
}

const reachesPhones = (service: string) => service === DEFAULT_SERVICE || service.startsWith("mobile_app_");

/** The companion apps' options (https://companion.home-assistant.io/docs/notifications/notifications-basic). */
function phoneData(message: NotificationMessage): Record<string, unknown> {
  const event = message.events.length === 1 ? message.events[0] : undefined;
  const urgent = message.severity === "critical" ? { priority: "high", ttl: 0, push: { "interruption-level": "time-sensitive" } } : {};
  return { group: "vigil", ...(event ? { tag: dedupKey(event) } : {}), ...urgent };
}

export const homeassistant: Provider<"homeassistant"> = {
  type: "homeassistant",
  secretFields: ["accessToken"],
  // Home Assistant sets no limit; one a second keeps phones (and the server) calm in a storm.
  perMinute: 60,

  target: (config) => ({ url: config.server }),
  validate: (input) =>
    check(input, (config) => {
      const server = serverUrl(config, "HOMEASSISTANT_SERVER_INVALID");
      const accessToken = requiredText(config, "accessToken", { code: "HOMEASSISTANT_TOKEN_REQUIRED", message: "A long-lived access token is required" }, true);
      headerSafe(accessToken, "accessToken");
      // "notify.mobile_app_pixel" as Home Assistant's developer tools write it is taken as the service it names.
      const service = text(config, "service").replace(/^notify\./, "");
      if (service && !SERVICE.test(service)) fail("HOMEASSISTANT_SERVICE_INVALID", "The notify service is a name such as mobile_app_pixel_8 (lower-case letters, digits and _)");
      return { server, accessToken, ...(service && service !== DEFAULT_SERVICE ? { service } : {}) };
    }),

  async send(config, message, ctx) {
    const service = config.service ?? DEFAULT_SERVICE;
    const { title, body } = titleAndBody(message);
    const payload = { ...(title ? { title } : {}), message: body, ...(reachesPhones(service) ? { data: phoneData(message) } : {}) };
    const url = `${config.server.replace(/\/+$/, "")}/api/services/notify/${service}`;
    const sent = await postJson(ctx, url, payload, { headers: { Authorization: `Bearer ${config.accessToken}` }, secrets: [config.accessToken] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    // The states the call changed: a list (usually empty).
    if (success(answer) && Array.isArray(answer.json)) return OK;
    const reply = answer.json as HomeAssistantAnswer | undefined;
    if (typeof reply?.message === "string") return failure(answer, `Home Assistant: ${snippet(reply.message)}`);
    return failure(answer, `Home Assistant: ${describeAnswer(answer)}`);
  },
};
