import { afterEach, describe, expect, test } from "bun:test";
import { teams } from "./teams";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const SIG = "Qm7vXr2pL9sK4tN8wY1zB6cD3fG5hJ0aE-uIoPqRsTu";
const HOOK = `/workflows/4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${SIG}`;
const ACCEPTED = () => new Response(null, { status: 202 });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = () => ({ url: `${fake!.url}${HOOK}` });
type Card = { body: Record<string, unknown>[] };
const cardOf = (json: unknown) => (json as { attachments: { content: Card }[] }).attachments[0].content;

describe("teams send", () => {
  test("posts an Adaptive Card: the title in red (Attention), the lines as facts", async () => {
    fake = startFake(ACCEPTED);
    expect(await teams.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(HOOK);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({
      type: "message",
      attachments: [
        {
          contentType: "application/vnd.microsoft.card.adaptive",
          content: {
            $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
            type: "AdaptiveCard",
            version: "1.4",
            body: [
              { type: "TextBlock", text: MESSAGE.title, weight: "Bolder", size: "Medium", wrap: true, color: "Attention" },
              {
                type: "FactSet",
                facts: [
                  { title: "URL", value: "https://shop.example.com/health?a=1&b=2" },
                  { title: "Error", value: "HTTP 503" },
                  { title: "Time", value: "2026-11-23 11:02:03 (UTC+08:00)" },
                ],
              },
            ],
          },
        },
      ],
    });
  });

  test("Good for ok, Default for info; no lines: only the title", async () => {
    fake = startFake(ACCEPTED);
    await teams.send(config(), { ...MESSAGE, severity: "ok" }, context(fake));
    await teams.send(config(), { ...MESSAGE, severity: "info", lines: [] }, context(fake));
    const cards = fake.received.map((r) => cardOf(r.json));
    expect(cards.map((c) => c.body[0].color)).toEqual(["Good", "Default"]);
    expect(cards[1].body).toHaveLength(1);
  });

  test("a line without ': ' is a wrapped TextBlock, in its place; a value may hold ': '", async () => {
    fake = startFake(ACCEPTED);
    const lines = ["This is a test message.", "Error: HTTP 503: Service Unavailable", "Time: 11:02", "no colon here"];
    await teams.send(config(), { ...MESSAGE, severity: "info", lines }, context(fake));
    expect(cardOf(fake.received[0].json).body.slice(1)).toEqual([
      { type: "TextBlock", text: "This is a test message.", wrap: true },
      { type: "FactSet", facts: [{ title: "Error", value: "HTTP 503: Service Unavailable" }, { title: "Time", value: "11:02" }] },
      { type: "TextBlock", text: "no colon here", wrap: true },
    ]);
  });

  test("a long title is cut to 400 characters, the lines to 6000", async () => {
    fake = startFake(ACCEPTED);
    await teams.send(config(), { ...MESSAGE, title: "t".repeat(500), lines: ["a".repeat(5000), "b".repeat(5000)] }, context(fake));
    const body = cardOf(fake.received[0].json).body;
    expect(body[0].text).toBe(`${"t".repeat(399)}…`);
    expect(body.slice(1)).toEqual([
      { type: "TextBlock", text: "a".repeat(5000), wrap: true },
      { type: "TextBlock", text: `${"b".repeat(998)}…`, wrap: true },
    ]);
  });

  test("a 200 with an empty body is success too; a 2xx carrying an error is not", async () => {
    fake = startFake(() => new Response(""));
    expect(await teams.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    fake.answer(() => Response.json({ error: { code: "InvalidTemplate", message: "Unable to process template language expressions" } }));
    expect(await teams.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Teams: Unable to process template language expressions (InvalidTemplate)",
      retryable: false,
    });
  });

  test("a 4xx is final with Workflows' error; the signature never shows", async () => {
    fake = startFake(() =>
      Response.json(
        { error: { code: "DirectApiAuthorizationRequired", message: `The request must be authenticated only by Shared Access scheme (sig=${SIG}).` } },
        { status: 401 },
      ),
    );
    expect(await teams.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Teams: The request must be authenticated only by Shared Access scheme (sig=••••). (DirectApiAuthorizationRequired)",
      retryable: false,
    });
    fake.answer(() => new Response(`workflow not found ${HOOK}`, { status: 404 }));
    expect(await teams.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Teams: HTTP 404: workflow not found ••••", retryable: false });
  });

  test("429 with Retry-After is retryable after it", async () => {
    fake = startFake(() =>
      Response.json({ error: { code: "WorkflowTriggerIsThrottled", message: "Rate limit exceeded." } }, { status: 429, headers: { "Retry-After": "17" } }),
    );
    expect(await teams.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Teams: Rate limit exceeded. (WorkflowTriggerIsThrottled)",
      retryable: true,
      retryAfterMs: 17_000,
    });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => new Response("Service Unavailable", { status: 503 }));
    expect(await teams.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Teams: HTTP 503: Service Unavailable", retryable: true });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await teams.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const url = `http://127.0.0.1:${await closedPort()}${HOOK}`;
    expect(await teams.send({ url }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("teams validate", () => {
  const hook = `https://prod-12.westeurope.logic.azure.com:443${HOOK}`;

  test("normalises: trims, drops unknown fields", () => {
    expect(teams.validate({ url: `\t${hook} `, title: "x" })).toEqual({ ok: true, config: { url: hook } });
  });

  test("the spec's codes", () => {
    const code = (input: Record<string, unknown>) => {
      const result = teams.validate(input);
      return result.ok ? "ok" : result.error.code;
    };
    expect(code({})).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: "" })).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: "mailto:team@example.com" })).toBe("WEBHOOK_URL_INVALID");
    // The retired Office 365 connector URL, and a Workflows URL without its signature.
    expect(code({ url: "https://contoso.webhook.office.com/webhookb2/a@b/IncomingWebhook/c/d" })).toBe("WEBHOOK_URL_SHAPE");
    expect(code({ url: hook.replace(`&sig=${SIG}`, "") })).toBe("WEBHOOK_URL_SHAPE");
    expect(code({ url: [hook] })).toBe("VALIDATION");
  });

  test("secrets, rate limit", () => {
    expect(teams.secretFields).toEqual(["url"]);
    expect(teams.perMinute).toBe(60);
  });
});
