// Discord webhook (https://discord.com/developers/docs/resources/webhook#execute-webhook): one embed coloured by
// severity.
import { check, webhookUrl } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success, urlSecrets } from "./http";
import type { Provider } from "./provider";

const COLOUR = { critical: 0xe5484d, ok: 0x30a46c, info: 0x0090ff } as const;

interface DiscordAnswer {
  /** The created message's id (answered because of wait=true). */
  id?: string;
  message?: string;
  code?: number;
  /** On 429: seconds with millisecond precision (0.344). */
  retry_after?: number;
}

/** The webhook URL with wait=true, so Discord answers the created message instead of an empty 204. */
export function discordUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("wait", "true");
  return parsed.href;
}

/**
 * The webhook URL's secrets for error text: urlSecrets' (whole URL, path, query values) plus the last `count` path
 * segments, where the hook's token sits (…/api/webhooks/{id}/{token}, Mattermost's …/hooks/{key}), so an answer
 * quoting the token alone is redacted too.
 */
export function hookSecrets(url: string, count: number): string[] {
  const secrets = urlSecrets(url);
  let path: string[];
  try {
    path = new URL(url).pathname.split("/").filter(Boolean);
  } catch {
    return secrets; // urlSecrets already holds the whole text
  }
  for (const segment of path.slice(-count)) {
    secrets.push(segment);
    try {
      secrets.push(decodeURIComponent(segment));
    } catch {
      // not valid percent-encoding: the raw segment is enough
    }
  }
  return secrets;
}

export const discord: Provider<"discord"> = {
  type: "discord",
  // The URL carries the webhook token.
  secretFields: ["url"],
  // 30 messages per minute per webhook.
  perMinute: 30,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => ({ url: webhookUrl(config, "discord") })),

  async send(config, message, ctx) {
    // Embed limits: title 256 characters, description 4096.
    const embed: { title: string; description?: string; color: number } = { title: clip(message.title, 256), color: COLOUR[message.severity] };
    const description = clip(message.lines.join("\n"), 4096);
    // No lines: no description, rather than an empty one.
    if (description) embed.description = description;
    const url = discordUrl(config.url);
    const sent = await postJson(ctx, url, { username: "Vigil", embeds: [embed] }, { secrets: [...hookSecrets(config.url, 1), url] });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    const reply = answer.json as DiscordAnswer | undefined;
    if (success(answer) && typeof reply?.id === "string") return OK;
    const retryAfter = reply?.retry_after;
    const retryAfterMs = typeof retryAfter === "number" && retryAfter >= 0 ? Math.round(retryAfter * 1000) : undefined;
    if (typeof reply?.message !== "string") return failure(answer, `Discord: ${describeAnswer(answer)}`, { retryAfterMs });
    const code = typeof reply.code === "number" && reply.code !== 0 ? ` (${reply.code})` : "";
    return failure(answer, `Discord: ${snippet(reply.message)}${code}`, { retryAfterMs });
  },
};
