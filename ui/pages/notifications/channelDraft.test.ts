import { describe, expect, test } from "bun:test";
import { CHANNEL_TYPES } from "../../../server/notifications/public";
import { PROVIDERS } from "../../../server/notifications/providers/index";
import { mask, maskConfig } from "../../../server/notifications/providers/mask";
import { CHANNEL_TYPE_LIST, type ChannelType, type PublicChannel } from "../../api/notifications";
import enUS from "../../i18n/en-US";
import {
  CHANNEL_FIELDS,
  changeType,
  emptyChannelForm,
  fieldOfErrorCode,
  formFromChannel,
  isKeptSecret,
  splitRecipients,
  toChannelInput,
  validateChannelForm,
  type ChannelFormValues,
  type FieldValues,
} from "./channelDraft";

const TOKEN = `123456789:${"A".repeat(35)}`;

function form(type: ChannelType, fields: Partial<FieldValues>, name = "Ops"): ChannelFormValues {
  const v = emptyChannelForm(type);
  return { ...v, name, fields: { ...v.fields, ...fields } };
}

function channel(type: ChannelType, config: Record<string, unknown>): PublicChannel {
  return {
    id: 7,
    name: "Ops",
    type,
    enabled: true,
    config,
    templates: {},
    quietHours: null,
    createdAt: 0,
    updatedAt: 0,
    health: { failing: false, consecutiveFailures: 0, lastSuccessAt: null, lastFailureAt: null, lastError: null },
  };
}

test("the form offers every type of the server, none left out", () => {
  expect([...CHANNEL_TYPE_LIST]).toEqual([...CHANNEL_TYPES]);
  expect(Object.keys(CHANNEL_FIELDS).sort()).toEqual([...CHANNEL_TYPES].sort());
});

test("the secret fields are the providers' secret fields", () => {
  for (const type of CHANNEL_TYPES) {
    const secret = CHANNEL_FIELDS[type].filter((f) => f.secret).map((f) => f.name);
    expect({ type, secret }).toEqual({ type, secret: [...PROVIDERS[type].secretFields] });
  }
});

describe("client checks match the server's", () => {
  // [type, fields, the server's first error code or null]
  const cases: [ChannelType, Partial<FieldValues>, string | null][] = [
    ["telegram", { botToken: TOKEN, chatId: "-1001234567890" }, null],
    ["telegram", { botToken: TOKEN, chatId: "@my_channel" }, null],
    ["telegram", { botToken: "", chatId: "1" }, "BOT_TOKEN_REQUIRED"],
    ["telegram", { botToken: "12345:short", chatId: "1" }, "BOT_TOKEN_INVALID"],
    ["telegram", { botToken: TOKEN, chatId: "" }, "CHAT_ID_REQUIRED"],
    ["telegram", { botToken: TOKEN, chatId: "my chat" }, "VALIDATION"],
    ["resend", { apiKey: "re_123", from: "ops@example.com", to: "a@example.com" }, null],
    ["resend", { apiKey: "re_123", from: "Vigil <ops@example.com>", to: "a@example.com, b@example.com; c@example.com" }, null],
    ["resend", { apiKey: "", from: "ops@example.com", to: "a@example.com" }, "API_KEY_REQUIRED"],
    ["resend", { apiKey: "k", from: "", to: "a@example.com" }, "SENDER_REQUIRED"],
    ["resend", { apiKey: "k", from: "not an address", to: "a@example.com" }, "SENDER_INVALID"],
    ["resend", { apiKey: "k", from: "<ops@example.com>", to: "a@example.com" }, "SENDER_INVALID"],
    ["resend", { apiKey: "k", from: "ops@example.com", to: "" }, "RECIPIENT_REQUIRED"],
    ["resend", { apiKey: "k", from: "ops@example.com", to: "a@example.com, nope" }, "RECIPIENT_INVALID"],
    ["slack", { url: "https://hooks.slack.com/services/T/B/X" }, null],
    ["slack", { url: "" }, "WEBHOOK_URL_REQUIRED"],
    ["slack", { url: "ftp://example.com/x" }, "WEBHOOK_URL_INVALID"],
    ["slack", { url: "hooks.slack.com/services" }, "WEBHOOK_URL_INVALID"],
    ["webhook", { url: "http://127.0.0.1:9000/hook" }, null],
    ["webhook", { url: "http://127.0.0.1:9000/hook", secret: "s3cret" }, null],
    ["dingtalk", { url: "https://oapi.dingtalk.com/robot/send?access_token=x", secret: "SECabc" }, null],
    ["wecom", { url: "" }, "WEBHOOK_URL_REQUIRED"],
    ["feishu", { url: "https://open.feishu.cn/open-apis/bot/v2/hook/x" }, null],
    // Provider URL shapes: the path is checked, not the host (a relay may stand in front).
    ["slack", { url: "https://api.slack.com/apps/A0123" }, "WEBHOOK_URL_SHAPE"],
    ["slack", { url: "https://relay.example/slack/services/T/B/X" }, null],
    ["dingtalk", { url: "https://oapi.dingtalk.com/robot/send" }, "WEBHOOK_URL_SHAPE"],
    ["dingtalk", { url: "http://10.0.0.8/robot/send?access_token=x" }, null],
    ["wecom", { url: "https://oapi.dingtalk.com/robot/send?access_token=x" }, "WEBHOOK_URL_SHAPE"],
    ["wecom", { url: "https://relay.example/cgi-bin/webhook/send?key=k" }, null],
    ["feishu", { url: "https://open.feishu.cn/app" }, "WEBHOOK_URL_SHAPE"],
    ["feishu", { url: "https://open.larksuite.com/open-apis/bot/v2/hook/x" }, null],
    ["webpush", { userIds: "3, 1" }, null],
    ["webpush", { role: "editor" }, null],
    ["webpush", {}, "WEBPUSH_RECIPIENTS"],
    ["webpush", { userIds: "1", role: "admin" }, "WEBPUSH_RECIPIENTS"],
    ["webpush", { userIds: Array.from({ length: 51 }, (_, i) => i + 1).join(", ") }, "WEBPUSH_RECIPIENTS"],
    // The types added for Kuma's users: a complete form passes both checks, a missing required field fails both.
    ["apprise", { server: "http://apprise:8000", urls: "tgram://123:abc/456" }, null],
    ["apprise", { server: "http://apprise:8000", key: "vigil", tag: "devops" }, null],
    ["apprise", { server: "http://apprise:8000" }, "APPRISE_TARGET_REQUIRED"],
    ["signal", { server: "http://signal:8080", number: "+4915112345678", recipients: "+4917612345678, group.abc=" }, null],
    ["signal", { server: "http://signal:8080", number: "+4915112345678", recipients: " " }, "SIGNAL_RECIPIENTS_INVALID"],
    ["opsgenie", { apiKey: "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d" }, null],
    ["opsgenie", { apiKey: "", region: "eu" }, "OPSGENIE_KEY_INVALID"],
    ["homeassistant", { server: "http://homeassistant.local:8123", accessToken: "abc.def.ghi" }, null],
    ["homeassistant", { server: "http://homeassistant.local:8123", accessToken: "" }, "HOMEASSISTANT_TOKEN_REQUIRED"],
    ["twilio", { accountSid: `AC${"0".repeat(32)}`, authToken: "f".repeat(32), fromNumber: "+15005550006", toNumber: "+15551234567" }, null],
    ["twilio", { accountSid: `AC${"0".repeat(32)}`, authToken: "f".repeat(32), fromNumber: "+15005550006", toNumber: "" }, "TWILIO_TO_INVALID"],
    ["pushbullet", { accessToken: "o.abc" }, null],
    ["pushbullet", { accessToken: "" }, "PUSHBULLET_TOKEN_REQUIRED"],
    ["nextcloudtalk", { server: "https://cloud.example.com", conversationToken: "abc123de", botSecret: "s".repeat(40) }, null],
    ["nextcloudtalk", { server: "https://cloud.example.com", conversationToken: "abc123de", botSecret: "" }, "NEXTCLOUDTALK_SECRET_REQUIRED"],
    ["grafanaoncall", { url: "https://oncall.example.com/integrations/v1/formatted_webhook/K3y/" }, null],
    ["grafanaoncall", { url: "https://oncall.example.com/integrations/v1/alertmanager/K3y/" }, "WEBHOOK_URL_SHAPE"],
    ["alertmanager", { url: "https://keep.example.com/alerts/event/alertmanager", token: "t" }, null],
    ["sendgrid", { apiKey: "SG.x", from: "Vigil <ops@example.com>", to: "a@example.com" }, null],
    ["brevo", { apiKey: "", from: "ops@example.com", to: "a@example.com" }, "API_KEY_REQUIRED"],
  ];
  for (const [type, fields, code] of cases) {
    test(`${type} ${JSON.stringify(fields)} → ${code ?? "ok"}`, () => {
      const v = form(type, fields);
      const server = PROVIDERS[type].validate(toChannelInput(v, "create").config as never);
      expect(server.ok ? null : server.error.code).toBe(code);
      const errors = validateChannelForm(v);
      if (code === null) expect(errors).toEqual({});
      else {
        const field = fieldOfErrorCode(code) ?? "chatId";
        expect(errors[field]).toBeDefined();
      }
    });
  }
});

test("the name is required, and a problem is reported as the spec's message", () => {
  const errors = validateChannelForm(form("slack", { url: "" }, "  "));
  expect(errors.name).toBe("notifications.channelForm.nameRequired");
  expect(errors.url).toBe("notifications.channelForm.webhookUrlRequired");
  expect(enUS.notifications.channelForm.nameRequired).toBe("Channel name is required");
  expect(enUS.notifications.channelForm.webhookUrlRequired).toBe("Webhook URL is required");
  expect(validateChannelForm(form("telegram", { botToken: "x", chatId: "" }))).toEqual({
    botToken: "notifications.channelForm.botTokenInvalid",
    chatId: "notifications.channelForm.chatIdRequired",
  });
});

test("every error key the checks give exists in English", () => {
  const keys = enUS.notifications.channelForm as Record<string, unknown>;
  for (const key of [
    "nameRequired",
    "nameTooLong",
    "botTokenRequired",
    "botTokenInvalid",
    "chatIdRequired",
    "chatIdInvalid",
    "apiKeyRequired",
    "senderRequired",
    "senderInvalid",
    "recipientRequired",
    "recipientInvalid",
    "webhookUrlRequired",
    "webhookUrlInvalid",
    "webpushRequired",
    "webpushBoth",
    "webpushTooMany",
    "appriseTargetRequired",
  ]) {
    expect({ key, present: typeof keys[key] === "string" }).toEqual({ key, present: true });
  }
});

test("recipients: commas, semicolons or spaces; sent as a list", () => {
  expect(splitRecipients(" a@x.io, b@x.io;c@x.io  a@x.io ")).toEqual(["a@x.io", "b@x.io", "c@x.io"]);
  const input = toChannelInput(form("resend", { apiKey: "k", from: "ops@x.io", to: "a@x.io, b@x.io" }), "create");
  expect(input.config).toEqual({ apiKey: "k", from: "ops@x.io", to: ["a@x.io", "b@x.io"] });
});

test("webpush: the chosen people go as ids, or the role; editing sends the other choice empty", () => {
  expect(toChannelInput(form("webpush", { userIds: "3, 1, 3" }), "create").config).toEqual({ userIds: [3, 1] });
  expect(toChannelInput(form("webpush", { role: "admin" }), "create").config).toEqual({ userIds: [], role: "admin" });
  const stored = formFromChannel(channel("webpush", { userIds: [2, 5] }));
  expect(stored.fields.userIds).toBe("2, 5");
  expect(toChannelInput({ ...stored, fields: { ...stored.fields, userIds: "", role: "viewer" } }, "edit").config).toEqual({ userIds: [], role: "viewer" });
  expect(toChannelInput(stored, "edit").config).toEqual({ userIds: [2, 5], role: "" });
});

test("creating leaves an empty optional secret out; only the chosen type's fields are sent", () => {
  const v = form("webhook", { url: " https://example.com/h ", secret: "", botToken: "left over" });
  expect(toChannelInput(v, "create")).toEqual({ name: "Ops", type: "webhook", enabled: true, config: { url: "https://example.com/h" } });
});

describe("editing a channel with masked secrets", () => {
  const stored = channel("telegram", { botToken: mask(TOKEN), chatId: "-100123" });
  const original = formFromChannel(stored);

  test("the masked token is kept as it is: valid, and sent back unchanged so the server keeps the stored one", () => {
    expect(original.fields.botToken).toBe(`••••${TOKEN.slice(-4)}`);
    expect(isKeptSecret("botToken", original, original)).toBe(true);
    expect(validateChannelForm(original, original)).toEqual({});
    const input = toChannelInput({ ...original, name: "Renamed" }, "edit");
    expect(input.config).toEqual({ botToken: original.fields.botToken, chatId: "-100123" });
  });

  test("a changed token is checked like a new one", () => {
    const v = { ...original, fields: { ...original.fields, botToken: "bad" } };
    expect(validateChannelForm(v, original).botToken).toBe("notifications.channelForm.botTokenInvalid");
  });

  test("clearing an optional secret sends it empty, which removes it", () => {
    const hook = formFromChannel(channel("webhook", { url: "https://example.com/h", secret: mask("a-long-signing-secret") }));
    const cleared = { ...hook, fields: { ...hook.fields, secret: "" } };
    expect(validateChannelForm(cleared, hook)).toEqual({});
    expect(toChannelInput(cleared, "edit").config).toEqual({ url: "https://example.com/h", secret: "" });
  });

  test("a masked Slack URL is kept too, though it is no usable URL", () => {
    const slack = formFromChannel(channel("slack", { url: mask("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX") }));
    expect(slack.fields.url).toBe("https://hooks.slack.com/…XXXX");
    expect(validateChannelForm(slack, slack)).toEqual({});
  });

  test("a webhook URL comes back with its key masked: kept and sent back as it is, dropped when leaving the type", () => {
    const config = maskConfig(PROVIDERS.webhook, { url: "https://user:pw@hooks.example.com/vigil?token=SECRETKEY123" });
    const hook = formFromChannel(channel("webhook", config));
    expect(hook.fields.url).toBe("https://••••@hooks.example.com/vigil?••••");
    expect(CHANNEL_FIELDS.webhook.find((f) => f.name === "url")?.secret).toBe(true);
    expect(validateChannelForm(hook, hook)).toEqual({});
    expect(toChannelInput({ ...hook, name: "Renamed" }, "edit").config).toEqual({ url: hook.fields.url, secret: "" });
    expect(changeType(hook, "slack", hook).fields.url).toBe("");
  });

  test("another type drops the stored masks; coming back restores them", () => {
    const slack = formFromChannel(channel("slack", { url: mask("https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX") }));
    const wecom = changeType(slack, "wecom", slack);
    expect(wecom.fields.url).toBe("");
    expect(isKeptSecret("url", wecom, slack)).toBe(false);
    expect(validateChannelForm(wecom, slack).url).toBe("notifications.channelForm.webhookUrlRequired");
    expect(changeType(wecom, "slack", slack).fields.url).toBe(slack.fields.url);
  });

  test("creating keeps what was typed across types", () => {
    const v = form("slack", { url: "https://example.com/h" });
    expect(changeType(v, "webhook").fields.url).toBe("https://example.com/h");
  });
});

test("a provider URL of the wrong shape reads as the server says it, in English; a kept masked URL needs no check", () => {
  for (const type of ["slack", "dingtalk", "wecom", "feishu", "grafanaoncall"] as const) {
    const key = validateChannelForm(form(type, { url: "https://example.com/not-a-hook" })).url;
    expect(key).toBe(`notifications.channelForm.webhookUrlShape.${type}`);
    const server = PROVIDERS[type].validate({ url: "https://example.com/not-a-hook" });
    expect(server.ok ? null : server.error.message).toBe(enUS.notifications.channelForm.webhookUrlShape[type]);
  }
  const stored = formFromChannel(channel("dingtalk", maskConfig(PROVIDERS.dingtalk, { url: "https://oapi.dingtalk.com/robot/send?access_token=0123456789abcdef" })));
  expect(validateChannelForm({ ...stored, name: "Renamed" }, stored)).toEqual({});
});
