// What a channel's webhook URL must look like: http(s), parsable, at most 2048 characters, and for the chat
// providers the path (and query key) of their robot URLs. The host is not checked, so an admin may send through a
// proxy or a regional host (open.larksuite.com, a company relay): the path shape is what tells a pasted Slack URL
// from a DingTalk one, or a copied page link from a webhook. No imports: the channel form runs this same code.

export const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL within the length limit. */
export function isWebhookUrl(value: string): boolean {
  return parseWebhookUrl(value) !== null;
}

function parseWebhookUrl(value: string): URL | null {
  if (value.length > MAX_URL_LENGTH) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

export interface UrlShape {
  /** How the provider's own URL ends (a proxy may put its own prefix before it). */
  path: RegExp;
  /** A query parameter that must be present and non-empty (the robot's key). */
  query?: string;
  /** The provider's URL as its docs show it, for the error message. */
  example: string;
  /** The provider's name in messages. */
  provider: string;
}

/** The chat providers' webhook shapes; the generic webhook takes any http(s) URL. */
export const URL_SHAPES = {
  slack: { path: /\/services\/[^/]+\/[^/]+\/[^/]+\/?$/, example: "https://hooks.slack.com/services/T…/B…/…", provider: "Slack" },
  dingtalk: { path: /\/robot\/send\/?$/, query: "access_token", example: "https://oapi.dingtalk.com/robot/send?access_token=…", provider: "DingTalk" },
  wecom: { path: /\/cgi-bin\/webhook\/send\/?$/, query: "key", example: "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…", provider: "WeCom" },
  feishu: { path: /\/bot\/v2\/hook\/[^/]+\/?$/, example: "https://open.feishu.cn/open-apis/bot/v2/hook/…", provider: "Feishu / Lark" },
  discord: { path: /\/api\/webhooks\/[^/]+\/[^/]+\/?$/, example: "https://discord.com/api/webhooks/{id}/{token}", provider: "Discord" },
  teams: { path: /\/workflows\/[^/]+\/triggers\/[^/]+\/paths\/invoke\/?$/, query: "sig", example: "https://prod-00.westus.logic.azure.com/workflows/…/triggers/manual/paths/invoke?api-version=…&sig=…", provider: "Microsoft Teams (Workflows)" },
  googlechat: { path: /\/v1\/spaces\/[^/]+\/messages\/?$/, query: "key", example: "https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…", provider: "Google Chat" },
  mattermost: { path: /\/hooks\/[^/]+\/?$/, example: "https://mattermost.example.com/hooks/…", provider: "Mattermost" },
  rocketchat: { path: /\/hooks\/[^/]+\/[^/]+\/?$/, example: "https://rocket.example.com/hooks/{id}/{token}", provider: "Rocket.Chat" },
  grafanaoncall: { path: /\/integrations\/v1\/(formatted_)?webhook\/[^/]+\/?$/, example: "https://oncall.example.com/integrations/v1/formatted_webhook/…/", provider: "Grafana OnCall" },
} as const satisfies Record<string, UrlShape>;

export type ShapedType = keyof typeof URL_SHAPES;

export const hasUrlShape = (type: string): type is ShapedType => Object.hasOwn(URL_SHAPES, type);

/** Whether an http(s) URL has the provider's path (and key); true for types without a shape. */
export function fitsUrlShape(type: string, value: string): boolean {
  if (!hasUrlShape(type)) return true;
  const url = parseWebhookUrl(value);
  if (!url) return false;
  const shape: UrlShape = URL_SHAPES[type];
  return shape.path.test(url.pathname) && (!shape.query || !!url.searchParams.get(shape.query)?.trim());
}

/** The server's message for a URL of the wrong shape. */
export const urlShapeMessage = (type: ShapedType) => `This is not a ${URL_SHAPES[type].provider} webhook URL: it looks like ${URL_SHAPES[type].example}`;
