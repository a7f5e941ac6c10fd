import { afterEach, describe, expect, test } from "bun:test";
import { googlechat } from "./googlechat";
import { closedPort, context, type Fake, MESSAGE, never, startFake } from "./test-fake";

const KEY = "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI";
const TOKEN = "Xn7Hq2LmR4tV9wZ1bC6dF3gJ5kP8sU0yE2aI4oQ6uW8";
const HOOK = `/v1/spaces/AAAAbCdEfGh/messages?key=${KEY}&token=${TOKEN}`;
const CREATED = () => Response.json({ name: "spaces/AAAAbCdEfGh/messages/p9Q8r7S6t5U.p9Q8r7S6t5U", sender: { type: "BOT" }, text: "x" });

let fake: Fake | undefined;
afterEach(() => {
  fake?.stop();
  fake = undefined;
});

const config = () => ({ url: `${fake!.url}${HOOK}` });
const paragraphOf = (json: unknown) =>
  (json as { cardsV2: { card: { sections: { widgets: { textParagraph: { text: string } }[] }[] } }[] }).cardsV2[0].card.sections[0].widgets[0].textParagraph.text;

describe("googlechat send", () => {
  test("posts the title as text and a card whose paragraph holds the escaped lines joined by <br>", async () => {
    fake = startFake(CREATED);
    expect(await googlechat.send(config(), MESSAGE, context(fake))).toEqual({ ok: true });
    const request = fake.received[0];
    expect(request.method).toBe("POST");
    expect(request.path).toBe(HOOK);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Vigil");
    expect(request.json).toEqual({
      text: MESSAGE.title,
      cardsV2: [
        {
          cardId: "vigil",
          card: {
            header: { title: MESSAGE.title },
            sections: [
              {
                widgets: [
                  { textParagraph: { text: "URL: https://shop.example.com/health?a=1&amp;b=2<br>Error: HTTP 503<br>Time: 2026-11-23 11:02:03 (UTC+08:00)" } },
                ],
              },
            ],
          },
        },
      ],
    });
  });

  test("HTML in a line is escaped; no lines: the text alone", async () => {
    fake = startFake(CREATED);
    await googlechat.send(config(), { ...MESSAGE, lines: ["Error: <b>x</b> & y"] }, context(fake));
    expect(paragraphOf(fake.received[0].json)).toBe("Error: &lt;b&gt;x&lt;/b&gt; &amp; y");
    await googlechat.send(config(), { ...MESSAGE, lines: [] }, context(fake));
    expect(fake.received[1].json).toEqual({ text: MESSAGE.title });
  });

  test("long texts: title cut to 400, the paragraph to 6000 counted escaped, never inside an entity or a <br>", async () => {
    fake = startFake(CREATED);
    await googlechat.send(config(), { ...MESSAGE, title: "t".repeat(500), lines: ["a".repeat(5996), "b"] }, context(fake));
    const body = fake.received[0].json as { text: string; cardsV2: { card: { header: { title: string } } }[] };
    expect(body.text).toBe(`${"t".repeat(399)}…`);
    expect(body.cardsV2[0].card.header.title).toBe(body.text);
    // "a"×5996 + "<br>" + "b" is 6001: the cut falls inside the <br>.
    expect(paragraphOf(body)).toBe(`${"a".repeat(5996)}…`);
    await googlechat.send(config(), { ...MESSAGE, lines: ["a", "&".repeat(2000)] }, context(fake));
    const cut = paragraphOf(fake.received[1].json);
    expect(cut.length).toBeLessThanOrEqual(6000);
    expect(cut).toMatch(/^a<br>(&amp;)+…$/);
  });

  test("a 2xx without the created message's name is a failure", async () => {
    fake = startFake(() => new Response("<html>Sign in</html>"));
    expect(await googlechat.send(config(), MESSAGE, context(fake))).toEqual({ ok: false, error: "Google Chat: HTTP 200: <html>Sign in</html>", retryable: false });
  });

  test("Google's error JSON: a 4xx is final with message and status; key and token never show", async () => {
    fake = startFake(() =>
      Response.json({ error: { code: 400, message: `Invalid JSON payload received. token=${TOKEN} key=${KEY}`, status: "INVALID_ARGUMENT" } }, { status: 400 }),
    );
    expect(await googlechat.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Google Chat: Invalid JSON payload received. token=•••• key=•••• (INVALID_ARGUMENT)",
      retryable: false,
    });
    fake.answer(() => Response.json({ error: { code: 403, message: "The caller does not have permission", status: "PERMISSION_DENIED" } }, { status: 403 }));
    expect(await googlechat.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Google Chat: The caller does not have permission (PERMISSION_DENIED)",
      retryable: false,
    });
  });

  test("429 RESOURCE_EXHAUSTED with Retry-After is retryable after it", async () => {
    fake = startFake(() =>
      Response.json(
        { error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" } },
        { status: 429, headers: { "Retry-After": "5" } },
      ),
    );
    expect(await googlechat.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Google Chat: Resource has been exhausted (e.g. check quota). (RESOURCE_EXHAUSTED)",
      retryable: true,
      retryAfterMs: 5000,
    });
  });

  test("a 5xx is retryable", async () => {
    fake = startFake(() => Response.json({ error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } }, { status: 503 }));
    expect(await googlechat.send(config(), MESSAGE, context(fake))).toEqual({
      ok: false,
      error: "Google Chat: The service is currently unavailable. (UNAVAILABLE)",
      retryable: true,
    });
  });

  test("no answer within the timeout, or a refused connection, is retryable", async () => {
    fake = startFake(never);
    expect(await googlechat.send(config(), MESSAGE, context(fake, { timeoutMs: 200 }))).toEqual({ ok: false, error: "timeout after 0.2 s", retryable: true });
    const url = `http://127.0.0.1:${await closedPort()}${HOOK}`;
    expect(await googlechat.send({ url }, MESSAGE, context(null))).toEqual({ ok: false, error: "connection refused", retryable: true });
  });
});

describe("googlechat validate", () => {
  const hook = `https://chat.googleapis.com${HOOK}`;

  test("normalises: trims, drops unknown fields", () => {
    expect(googlechat.validate({ url: ` ${hook}\n`, thread: "x" })).toEqual({ ok: true, config: { url: hook } });
  });

  test("the spec's codes", () => {
    const code = (input: Record<string, unknown>) => {
      const result = googlechat.validate(input);
      return result.ok ? "ok" : result.error.code;
    };
    expect(code({})).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: null })).toBe("WEBHOOK_URL_REQUIRED");
    expect(code({ url: "chat.googleapis.com/v1/spaces/A/messages?key=k" })).toBe("WEBHOOK_URL_INVALID");
    // A link to the space in the browser, and a webhook URL without its key.
    expect(code({ url: "https://chat.google.com/room/AAAAbCdEfGh" })).toBe("WEBHOOK_URL_SHAPE");
    expect(code({ url: "https://chat.googleapis.com/v1/spaces/AAAAbCdEfGh/messages" })).toBe("WEBHOOK_URL_SHAPE");
    expect(code({ url: true })).toBe("VALIDATION");
  });

  test("secrets, rate limit", () => {
    expect(googlechat.secretFields).toEqual(["url"]);
    expect(googlechat.perMinute).toBe(60);
  });
});
