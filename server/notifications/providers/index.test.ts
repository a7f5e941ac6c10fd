import { expect, test } from "bun:test";
import { CHANNEL_TYPES } from "../public";
import { PROVIDERS, providerFor } from "./index";

test("one provider per channel type, each under its own type", () => {
  expect(Object.keys(PROVIDERS).sort()).toEqual([...CHANNEL_TYPES].sort());
  for (const type of CHANNEL_TYPES) {
    expect(providerFor(type).type).toBe(type);
    expect(providerFor(type)).toBe(PROVIDERS[type] as never);
  }
});

test("documented rate limits and secret fields", () => {
  const limits = Object.fromEntries(CHANNEL_TYPES.map((type) => [type, PROVIDERS[type].perMinute]));
  expect(limits).toEqual({
    resend: 120,
    slack: 60,
    telegram: 20,
    webhook: 60,
    dingtalk: 20,
    wecom: 20,
    feishu: 100,
    smtp: 30,
    discord: 30,
    teams: 60,
    googlechat: 60,
    mattermost: 60,
    rocketchat: 60,
    matrix: 12,
    ntfy: 60,
    gotify: 60,
    pushover: 60,
    bark: 60,
    serverchan: 5,
    pushplus: 10,
    pagerduty: 120,
    webpush: 60,
    apprise: 30,
    signal: 30,
    opsgenie: 60,
    homeassistant: 60,
    twilio: 60,
    pushbullet: 30,
    nextcloudtalk: 60,
    grafanaoncall: 60,
    alertmanager: 60,
    sendgrid: 120,
    brevo: 120,
  });
  const secrets = Object.fromEntries(CHANNEL_TYPES.map((type) => [type, PROVIDERS[type].secretFields]));
  expect(secrets).toEqual({
    resend: ["apiKey"],
    slack: ["url"],
    telegram: ["botToken"],
    webhook: ["url", "secret"],
    dingtalk: ["url", "secret"],
    wecom: ["url"],
    feishu: ["url", "secret"],
    smtp: ["password"],
    discord: ["url"],
    teams: ["url"],
    googlechat: ["url"],
    mattermost: ["url"],
    rocketchat: ["url"],
    matrix: ["accessToken"],
    ntfy: ["token", "password"],
    gotify: ["token"],
    pushover: ["userKey", "appToken"],
    bark: ["deviceKey"],
    serverchan: ["sendKey"],
    pushplus: ["token"],
    pagerduty: ["routingKey"],
    webpush: [],
    apprise: ["urls", "key"],
    signal: [],
    opsgenie: ["apiKey"],
    homeassistant: ["accessToken"],
    twilio: ["authToken"],
    pushbullet: ["accessToken"],
    nextcloudtalk: ["botSecret"],
    grafanaoncall: ["url"],
    alertmanager: ["url", "token"],
    sendgrid: ["apiKey"],
    brevo: ["apiKey"],
  });
});

test("a config that is not an object is a VALIDATION error for every type", () => {
  for (const type of CHANNEL_TYPES) {
    expect(providerFor(type).validate([] as never)).toEqual({ ok: false, error: { code: "VALIDATION", message: "config must be an object (got an array)" } });
  }
});
