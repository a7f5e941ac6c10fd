import { describe, expect, test } from "bun:test";
import { HttpError } from "../http/errors";
import { renderMessage } from "./messages";
import { COLOURS, html } from "./providers/email";
import { telegram } from "./providers/telegram";
import { context, startFake } from "./providers/test-fake";
import { sampleEvent } from "./template-context";
import { applyTemplates, previewTemplate, validateTemplates, type ChannelTemplates } from "./templates";

// Message templates: the event's variables, the built-in text kept without a template, errors with line and column on
// save, the sandbox refusing what it must, and a webhook body that must be JSON.

const down = () => renderMessage([sampleEvent("down")], "en-US", "Asia/Shanghai");
const apply = (templates: ChannelTemplates, type: Parameters<typeof applyTemplates>[2] = "slack", message = down()) =>
  applyTemplates(message, templates, type, "Asia/Shanghai", "https://vigil.example.com/");

/** The 400 a save answers, as { message, field, line, column }. */
function refusal(templates: unknown, type: Parameters<typeof validateTemplates>[1] = "slack") {
  try {
    validateTemplates(templates, type);
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    const err = e as HttpError;
    expect([err.status, err.code]).toEqual([400, "TEMPLATE_INVALID"]);
    return { message: err.message, ...(err.extra as { field?: string; line?: number | null; column?: number | null }) };
  }
  throw new Error("accepted");
}

describe("rendering", () => {
  test("the event's fields: target, status, reason in the instance's language, time in its zone, facts, the page's URL", () => {
    const message = apply({
      down: {
        title: "[{{ status | upcase }}] {{ target.name }}",
        body: "{{ reason }}\n{{ facts.httpStatus }} in {{ facts.responseTime }} ms at {{ time }}\n{{ target.url }}\n{{ timestamp }}",
      },
    });
    expect(message.title).toBe("[DOWN] Shop API");
    expect(message.lines).toEqual([
      "Status 503, expected 200-299",
      "503 in 182 ms at 2026-11-23 11:02:03 (UTC+08:00)",
      "https://vigil.example.com/monitors/12",
      "2026-11-23T03:02:03.000Z",
    ]);
    const zh = applyTemplates(renderMessage([sampleEvent("down")], "zh-CN", "UTC"), { down: { body: "{{ reason }}" } }, "slack", "UTC");
    expect(zh.lines).toEqual(["状态码 503，期望 200-299"]);
  });

  test("ackUrl (also facts.ackUrl): the alert's acknowledgement link, empty without one; the preview shows a sample with --public-url", () => {
    const ackUrl = "https://vigil.example.com/ack/abc.def.ghi";
    const linked = renderMessage([{ ...sampleEvent("down"), facts: { ...sampleEvent("down").facts, ackUrl } }], "en-US", "UTC");
    expect(apply({ down: { body: "[{{ ackUrl }}] [{{ facts.ackUrl }}]" } }, "slack", linked).lines).toEqual([`[${ackUrl}] [${ackUrl}]`]);
    expect(apply({ down: { body: "[{{ ackUrl }}]" } }).lines).toEqual(["[]"]);
    expect(validateTemplates({ reminder: { body: "{{ ackUrl }} {{ facts.ackUrl }}" } }, "slack")).toEqual({ reminder: { body: "{{ ackUrl }} {{ facts.ackUrl }}" } });
    const preview = (baseUrl?: string) => previewTemplate({ type: "slack", kind: "down", body: "{{ ackUrl }}", lang: "en-US", timeZone: "UTC", baseUrl }).body.text;
    expect(preview("https://vigil.example.com")).toStartWith("https://vigil.example.com/ack/");
    expect(preview()).toBe("");
    expect(previewTemplate({ type: "slack", kind: "recovery", body: "[{{ ackUrl }}]", lang: "en-US", timeZone: "UTC", baseUrl: "https://vigil.example.com" }).body.text).toBe("[]");
  });

  test("without a template (or for another kind, or an empty part) the built-in message stays", () => {
    const builtIn = down();
    expect(apply({})).toEqual(builtIn);
    expect(apply({ recovery: { title: "up!" } })).toEqual(builtIn);
    expect(apply({ down: { body: "{{ body }}\n-- on call: Bob" } }).title).toBe(builtIn.title);
    expect(apply({ down: { body: "{{ body }}\n-- on call: Bob" } }).lines).toEqual([...builtIn.lines, "-- on call: Bob"]);
  });

  test("a storm of one kind renders once with every event in `events`; a mixed storm keeps the built-in text", () => {
    const a = sampleEvent("down");
    const b = { ...sampleEvent("down"), target: { type: "monitor" as const, id: 13, name: "Shop DB" } };
    const storm = renderMessage([a, b], "en-US", "UTC");
    const out = apply({ down: { title: "{{ count }} down", body: "{% for e in events %}- {{ e.target.name }}: {{ e.reason }}\n{% endfor %}" } }, "slack", storm);
    expect(out.title).toBe("2 down");
    expect(out.lines).toEqual(["- Shop API: Status 503, expected 200-299", "- Shop DB: Status 503, expected 200-299"]);
    const mixed = renderMessage([a, sampleEvent("offline")], "en-US", "UTC");
    expect(apply({ down: { title: "x" }, offline: { title: "y" } }, "slack", mixed)).toEqual(mixed);
  });

  test("a title is one line and every part is bounded", () => {
    const out = apply({ down: { title: "a\n  b", body: "{% for i in (1..5000) %}x{% endfor %}" } });
    expect(out.title).toBe("a b");
    expect(out.lines[0]!.length).toBe(4_000);
    expect(out.lines[0]!.endsWith("…")).toBe(true);
  });

  test("escaping is the channel's: what a template writes is text, laid out safely by each provider", async () => {
    const event = { ...sampleEvent("down"), target: { type: "monitor" as const, id: 1, name: "<b>Shop</b> & co" } };
    const message = applyTemplates(renderMessage([event], "en-US", "UTC"), { down: { title: "{{ target.name }}", body: "<i>{{ target.name }}</i>" } }, "telegram", "UTC");
    const fake = startFake(() => Response.json({ ok: true, result: {} }));
    try {
      await telegram.send({ botToken: `1:${"A".repeat(35)}`, chatId: "1" }, message, context(fake, { endpoints: { telegram: fake.url, resend: fake.url } }));
      expect((fake.received[0]!.json as { text: string }).text).toBe("<b>&lt;b&gt;Shop&lt;/b&gt; &amp; co</b>\n&lt;i&gt;&lt;b&gt;Shop&lt;/b&gt; &amp; co&lt;/i&gt;");
    } finally {
      fake.stop();
    }
    expect(html(message.title, message.lines, COLOURS.critical)).toContain("&lt;i&gt;&lt;b&gt;Shop&lt;/b&gt; &amp; co&lt;/i&gt;");
  });

  test("a template failing at send time leaves that part built-in and says why", () => {
    const problems: string[] = [];
    const message = applyTemplates(down(), { down: { title: "{% for i in (1..100000000) %}{% for j in (1..100000000) %}xx{% endfor %}{% endfor %}", body: "ok" } }, "slack", "UTC", undefined, (p) => problems.push(p.message));
    expect(message.title).toBe(down().title);
    expect(message.lines).toEqual(["ok"]);
    expect(problems).toHaveLength(1);
  });
});

describe("the webhook's JSON body", () => {
  test("every {{ }} writes a JSON value: quotes and newlines in names cannot break the body", () => {
    const event = { ...sampleEvent("down"), target: { type: "monitor" as const, id: 1, name: 'say "hi"\n}' } };
    const out = applyTemplates(renderMessage([event], "en-US", "UTC"), { down: { body: '{"text": {{ title }}, "name": {{ target.name }}, "code": {{ facts.httpStatus }}, "raw": "{{ kind | raw }}"}' } }, "webhook", "UTC");
    expect(JSON.parse(out.body!)).toEqual({ text: `🔴 Monitor down: say "hi"\n}`, name: 'say "hi"\n}', code: 503, raw: "down" });
  });

  test("a body that is not JSON is refused on save; a title is plain text", () => {
    const r = refusal({ down: { body: '{\n  "text": {{ title }},\n}' } }, "webhook");
    expect(r.field).toBe("templates.down.body");
    expect(r.message).toContain("the body is not valid JSON");
    expect(validateTemplates({ down: { title: "{{ target.name }} is {{ status }}" } }, "webhook")).toEqual({ down: { title: "{{ target.name }} is {{ status }}" } });
    // The same text is fine for a chat channel.
    expect(validateTemplates({ down: { body: "not { json" } }, "slack")).toEqual({ down: { body: "not { json" } });
  });
});

describe("validation on save", () => {
  test("a syntax error names its line and column", () => {
    const r = refusal({ recovery: { body: "Back up:\n  {{ target.name " } });
    expect(r).toMatchObject({ field: "templates.recovery.body", line: 2, column: 3 });
    expect(r.message).toContain("line 2, column 3");
    expect(refusal({ down: { title: "{% if status %}x" } }).message).toContain("not closed");
    expect(refusal({ down: { title: "{{ name | nosuchfilter }}" } }).message).toContain("undefined filter: nosuchfilter");
  });

  test("an unknown variable is refused where it stands; loop and assigned variables are not unknown", () => {
    expect(refusal({ down: { body: "ok\n{{ target.nmae }}" } })).toMatchObject({ line: 2, column: 4 });
    expect(refusal({ down: { body: "{{ target.nmae }}" } }).message).toContain("unknown variable: target.nmae");
    expect(refusal({ down: { title: "{{ monitor }}" } }).message).toContain("unknown variable: monitor");
    expect(refusal({ cpu: { title: "{{ facts.cpu }}" } }).message).toContain("unknown variable: facts.cpu");
    const fine = "{% assign n = target.name | upcase %}{{ n }}{% for e in events %}{{ forloop.index }} {{ e.facts.url }}{% endfor %}{{ events[0].target.name }}";
    expect(validateTemplates({ down: { body: fine } }, "slack")).toEqual({ down: { body: fine } });
  });

  test("unknown kinds, wrong shapes and oversized sources are refused; empty parts drop out", () => {
    expect(refusal({ outage: { title: "x" } }).message).toContain('unknown event kind "outage"');
    expect(refusal({ down: "x" }).message).toContain("templates.down must be an object");
    expect(refusal({ down: { title: 5 } }).message).toContain("templates.down.title must be text");
    expect(refusal([]).message).toContain("templates must be an object");
    expect(refusal({ down: { title: "x".repeat(501) } }).message).toContain("longer than 500");
    expect(validateTemplates({ down: { title: "", body: "  " }, recovery: null }, "slack")).toEqual({});
    expect(validateTemplates(undefined, "slack")).toEqual({});
  });
});

describe("the sandbox", () => {
  test("no files: include, render and layout are refused", () => {
    for (const tag of ["{% include 'etc/passwd' %}", "{% render '/etc/passwd' %}", "{% layout 'x' %}"]) {
      expect(refusal({ down: { body: tag } }).message).toContain("not allowed in message templates");
    }
  });

  test("no prototype or runtime reach: constructor, __proto__ and globals read nothing", () => {
    expect(refusal({ down: { body: "{{ target.constructor }}" } }).message).toContain("unknown variable: target.constructor");
    expect(refusal({ down: { body: "{{ facts.__proto__ }}" } }).message).toContain("unknown variable: facts.__proto__");
    // Past the names validation knows (a loop variable, a string's members), the engine reads own fields only.
    const reach = "[{{ reason.constructor.name }}][{{ events.constructor }}][{% for e in events %}{{ e.constructor }}{{ e.target.__proto__ }}{% endfor %}]!";
    expect(validateTemplates({ down: { body: reach } }, "slack")).toEqual({ down: { body: reach } });
    expect(apply({ down: { body: reach } }).lines).toEqual(["[][][]!"]);
    expect(refusal({ down: { body: "{{ process.env }}" } }).message).toContain("unknown variable: process");
    expect(refusal({ down: { body: "{{ globalThis }}" } }).message).toContain("unknown variable: globalThis");
  });

  test("endless loops and memory bombs stop with an error, on save too", () => {
    expect(refusal({ down: { body: "{% for i in (1..100000000) %}{% for j in (1..100000000) %}x{% endfor %}{% endfor %}" } }).message).toMatch(/limit/);
    const bomb = "{% assign s = 'xxxxxxxxxx' %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}";
    expect(refusal({ down: { body: bomb } }).message).toMatch(/limit/);
  });
});

describe("preview", () => {
  test("each part renders for a sample of the kind in the asked language, or says what is wrong", () => {
    const zh = previewTemplate({ type: "slack", kind: "disk", title: "{{ target.name }} {{ facts.mountPoint }}", body: "", lang: "zh-CN", timeZone: "UTC" });
    expect(zh.title).toEqual({ text: "web-01 /var", problem: null });
    expect(zh.body.text).toContain("挂载点: /var");
    const en = previewTemplate({ type: "slack", kind: "down", title: "{{ nope }}", lang: "en-US", timeZone: "UTC" });
    expect(en.title).toEqual({ text: null, problem: { message: "unknown variable: nope", line: 1, column: 4 } });
    expect(en.body.text).toContain("Reason: Status 503");
    const hook = previewTemplate({ type: "webhook", kind: "test", lang: "en-US", timeZone: "UTC" });
    expect(JSON.parse(hook.body.text!)).toMatchObject({ title: "✅ Vigil test message: Ops", severity: "info" });
  });
});
