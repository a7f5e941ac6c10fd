// Microsoft Teams through a Workflows (Power Automate) webhook, "post to a channel when a webhook request is received"
// (https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook): an
// Adaptive Card with the title and the facts.
import { check, webhookUrl } from "./fields";
import { clip, describeAnswer, failure, OK, postJson, snippet, success, urlSecrets } from "./http";
import type { Provider } from "./provider";

const COLOUR = { critical: "Attention", ok: "Good", info: "Default" } as const;
/** Teams takes about 28 KB per message: the lines are cut well below it, even at 4 bytes a character. */
const MAX_LINES = 6000;
const MAX_TITLE = 400;

interface WorkflowsAnswer {
  error?: { code?: string; message?: string };
}

type Element =
  | { type: "TextBlock"; text: string; wrap: true; weight?: "Bolder"; size?: "Medium"; color?: string }
  | { type: "FactSet"; facts: { title: string; value: string }[] };

/** "Label: value" lines as facts (consecutive ones in one FactSet); any other line as a wrapped TextBlock. */
export function teamsBody(lines: string[]): Element[] {
  const body: Element[] = [];
  for (const line of lines) {
    const at = line.indexOf(": ");
    if (at < 0) {
      body.push({ type: "TextBlock", text: line, wrap: true });
      continue;
    }
    const fact = { title: line.slice(0, at), value: line.slice(at + 2) };
    const last = body[body.length - 1];
    if (last?.type === "FactSet") last.facts.push(fact);
    else body.push({ type: "FactSet", facts: [fact] });
  }
  return body;
}

export const teams: Provider<"teams"> = {
  type: "teams",
  // The URL's sig parameter is the credential.
  secretFields: ["url"],
  perMinute: 60,

  target: (config) => ({ url: config.url }),
  validate: (input) => check(input, (config) => ({ url: webhookUrl(config, "teams") })),

  async send(config, message, ctx) {
    const text = clip(message.lines.join("\n"), MAX_LINES);
    const header: Element = { type: "TextBlock", text: clip(message.title, MAX_TITLE), weight: "Bolder", size: "Medium", wrap: true, color: COLOUR[message.severity] };
    const card = {
      $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
      type: "AdaptiveCard",
      version: "1.4",
      body: [header, ...teamsBody(text ? text.split("\n") : [])],
    };
    const payload = { type: "message", attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", content: card }] };
    const sent = await postJson(ctx, config.url, payload, { secrets: urlSecrets(config.url) });
    if (!sent.ok) return sent;
    const answer = sent.answer;
    // Workflows answers 202 Accepted with an empty body (the flow runs afterwards); errors come as { error: { code, message } }.
    const reply = answer.json as WorkflowsAnswer | undefined;
    const error = reply?.error;
    if (success(answer) && !error) return OK;
    if (typeof error?.message === "string") {
      const code = typeof error.code === "string" ? ` (${snippet(error.code, 60)})` : "";
      return failure(answer, `Teams: ${snippet(error.message)}${code}`);
    }
    return failure(answer, `Teams: ${describeAnswer(answer)}`);
  },
};
