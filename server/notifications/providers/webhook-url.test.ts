import { expect, test } from "bun:test";
import { fitsUrlShape, isWebhookUrl, URL_SHAPES } from "./webhook-url";

test("each provider's own URL fits its shape, and so does the example the form shows", () => {
  const own: [string, string][] = [
    ["slack", "https://hooks.slack.com/services/T0123/B0456/abcDEF123"],
    ["dingtalk", "https://oapi.dingtalk.com/robot/send?access_token=0123abcd"],
    ["wecom", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx"],
    ["feishu", "https://open.feishu.cn/open-apis/bot/v2/hook/0123-abcd"],
    ["feishu", "https://open.larksuite.com/open-apis/bot/v2/hook/0123-abcd"],
    ["discord", "https://discord.com/api/webhooks/1234567890/AbCdEf-123"],
    ["teams", "https://prod-12.westeurope.logic.azure.com:443/workflows/abc123/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers&sv=1.0&sig=XyZ"],
    ["teams", "https://default0a.12.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/abc/triggers/manual/paths/invoke?api-version=1&sig=XyZ"],
    ["googlechat", "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=AIza&token=abc"],
    ["mattermost", "https://mm.example.com/hooks/xyz123"],
    ["rocketchat", "https://rocket.example.com/hooks/abc/def"],
    ["grafanaoncall", "https://oncall-prod-us-central-0.grafana.net/oncall/integrations/v1/formatted_webhook/AbC123xYz/"],
    ["grafanaoncall", "http://oncall.internal:8080/integrations/v1/webhook/AbC123xYz"],
  ];
  for (const [type, url] of own) expect([type, fitsUrlShape(type, url)]).toEqual([type, true]);
  for (const [type, shape] of Object.entries(URL_SHAPES)) expect([type, fitsUrlShape(type, shape.example)]).toEqual([type, true]);
});

test("a proxy or relay host is accepted: the path shape is checked, not the host", () => {
  expect(fitsUrlShape("slack", "https://relay.corp.example/slack/services/T0/B0/x")).toBe(true);
  expect(fitsUrlShape("dingtalk", "http://10.0.0.8:8080/robot/send?access_token=abc")).toBe(true);
  expect(fitsUrlShape("wecom", "https://proxy.example/wecom/cgi-bin/webhook/send?key=k")).toBe(true);
  expect(fitsUrlShape("feishu", "https://proxy.example/open-apis/bot/v2/hook/id/")).toBe(true);
});

test("another provider's URL, a page link, or a robot URL without its key is refused", () => {
  const wrong: [string, string][] = [
    ["slack", "https://hooks.slack.com/services/T0/B0"],
    ["slack", "https://api.slack.com/apps/A0123/incoming-webhooks"],
    ["slack", "https://oapi.dingtalk.com/robot/send?access_token=abc"],
    ["dingtalk", "https://oapi.dingtalk.com/robot/send"],
    ["dingtalk", "https://oapi.dingtalk.com/robot/send?access_token="],
    ["dingtalk", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=abc"],
    ["wecom", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send"],
    ["wecom", "https://work.weixin.qq.com/"],
    ["feishu", "https://open.feishu.cn/open-apis/bot/v2/hook/"],
    ["feishu", "https://hooks.slack.com/services/T0/B0/x"],
    ["slack", "ftp://hooks.slack.com/services/T0/B0/x"],
    ["grafanaoncall", "https://oncall.example.com/integrations/v1/alertmanager/AbC123xYz/"],
    ["grafanaoncall", "https://oncall.example.com/integrations/v1/formatted_webhook/"],
  ];
  for (const [type, url] of wrong) expect([type, url, fitsUrlShape(type, url)]).toEqual([type, url, false]);
});

test("the generic webhook takes any http(s) URL within 2048 characters", () => {
  expect(fitsUrlShape("webhook", "https://example.com/anything?x=1")).toBe(true);
  expect(isWebhookUrl("https://example.com/anything")).toBe(true);
  expect(isWebhookUrl("example.com/x")).toBe(false);
  expect(isWebhookUrl(`https://example.com/${"a".repeat(2048)}`)).toBe(false);
});
