import { expect, withSession } from "./fixtures";
import { test } from "./hook";
import { LANGUAGES, tr, toast } from "./i18n";

// The templates tab in both languages: the variables beside the editor, a live preview in both languages, problems
// with their line and column, a webhook body that must be JSON, saving, the test send using it, back to built-in.

for (const [locale, m] of LANGUAGES) {
  test.describe(`message templates (${locale})`, () => {
    test.use({ locale });

    test("write a webhook template with a live preview, fix what is refused, save it, send with it, reset it", async ({ page, vigil, hook }) => {
      const admin = await vigil.register("alice");
      const channel = (await vigil.api("POST", "/api/notifications/channels", { name: "Hook", type: "webhook", config: { url: hook.url("/t") } }, admin.token)).body.channel;
      await withSession(page, admin, "/notifications?tab=templates");
      await expect(page.getByTestId("template-variables")).toContainText("{{ target.name }}");
      await expect(page.getByTestId("template-variables")).toContainText(tr(m, "notifications.templates.variables.reason"));
      await expect(page.getByTestId("template-json-hint")).toBeVisible();
      // Nothing written: the built-in title, in both languages at once.
      await expect(page.getByTestId("template-preview-zh-CN-title")).toHaveText("🔴 监控故障：Shop API");
      await expect(page.getByTestId("template-preview-en-US-title")).toHaveText("🔴 Monitor down: Shop API");

      const title = page.getByTestId("template-title");
      await title.fill("[{{ status | upcase }}] {{ target.nmae }}");
      const at = tr(m, "notifications.templates.problems.at", { line: 1, column: 28 });
      const unknown = tr(m, "notifications.templates.problems.unknownVariable", { name: "target.nmae" });
      for (const lang of ["zh-CN", "en-US"]) {
        await expect(page.getByTestId(`template-preview-${lang}-problem`)).toHaveText(
          tr(m, "notifications.templates.problems.in", { part: tr(m, "notifications.templates.problems.parts.title"), where: at, what: unknown }),
        );
      }
      await title.fill("[{{ status | upcase }}] {{ target.name }}");
      await expect(page.getByTestId("template-preview-en-US-title")).toHaveText("[DOWN] Shop API");
      await expect(page.getByTestId("template-preview-zh-CN-title")).toHaveText("[DOWN] Shop API");
      // A later type's sample: a PostgreSQL monitor's alert, its target line and error code among the facts.
      await page.getByTestId("template-body").fill('{"target": {{ facts.target }}, "code": {{ facts.errorCode }}}');
      await page.getByTestId("template-sample").selectOption("postgres");
      await expect(page.getByTestId("template-preview-en-US-title")).toHaveText("[DOWN] Orders DB");
      await expect(page.getByTestId("template-preview-zh-CN-body")).toContainText('"target": "db.example.com:5432/orders", "code": "AUTH_FAILED"');
      await page.getByTestId("template-sample").selectOption("http");
      await expect(page.getByTestId("template-preview-en-US-title")).toHaveText("[DOWN] Shop API");

      // A body that is not JSON: refused on save, said in the page's language; nothing stored.
      const body = page.getByTestId("template-body");
      await body.fill('{"text": {{ title }},}');
      await page.getByTestId("template-save").click();
      await expect(page.getByTestId("template-error")).toContainText(tr(m, "notifications.templates.problems.notJson"));
      expect((await vigil.api("GET", `/api/notifications/channels/${channel.id}`, undefined, admin.token)).body.channel.templates).toEqual({});

      await body.fill('{"text": {{ title }}, "why": {{ reason }}}');
      await expect(page.getByTestId("template-preview-en-US-body")).toContainText('"why": "Status 503, expected 200-299"');
      await expect(page.getByTestId("template-preview-zh-CN-body")).toContainText("状态码 503");
      await page.getByTestId("template-save").click();
      await expect(toast(page, tr(m, "notifications.templates.saved"))).toBeVisible();
      await expect(page.getByTestId("template-error")).toHaveCount(0);
      await expect(page.getByTestId("template-custom")).toBeVisible();
      expect((await vigil.api("GET", `/api/notifications/channels/${channel.id}`, undefined, admin.token)).body.channel.templates).toEqual({
        down: { title: "[{{ status | upcase }}] {{ target.name }}", body: '{"text": {{ title }}, "why": {{ reason }}}' },
      });

      // The test message's own template, then a test send: the receiver gets exactly that body.
      await page.getByTestId("template-kind").selectOption("test");
      await expect(title).toHaveValue("");
      await body.fill('{"ping": {{ target.name }}, "kind": {{ kind }}}');
      await page.getByTestId("template-save").click();
      const stored = async () => (await vigil.api("GET", `/api/notifications/channels/${channel.id}`, undefined, admin.token)).body.channel.templates;
      await expect.poll(async () => (await stored()).test).toEqual({ body: '{"ping": {{ target.name }}, "kind": {{ kind }}}' });
      await expect(page.getByTestId("template-custom")).toBeVisible();
      expect((await vigil.api("POST", `/api/notifications/channels/${channel.id}/test`, {}, admin.token)).status).toBe(200);
      expect(JSON.parse(hook.received.at(-1)!.body)).toEqual({ ping: "Hook", kind: "test" });

      // Reloaded: what was saved is there; back to built-in for "down".
      await page.reload();
      await expect(page.getByTestId("template-title")).toHaveValue("[{{ status | upcase }}] {{ target.name }}");
      await page.getByTestId("template-reset").click();
      await expect(toast(page, tr(m, "notifications.templates.resetDone"))).toBeVisible();
      await expect(page.getByTestId("template-title")).toHaveValue("");
      await expect(page.getByTestId("template-preview-en-US-title")).toHaveText("🔴 Monitor down: Shop API");
      expect(Object.keys((await vigil.api("GET", `/api/notifications/channels/${channel.id}`, undefined, admin.token)).body.channel.templates)).toEqual(["test"]);
    });

    test("a chat channel's template: plain text, a syntax error at its line, on a 390 px phone", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await vigil.api("POST", "/api/notifications/channels", { name: "Team chat", type: "mattermost", config: { url: "https://chat.example.com/hooks/abc" } }, admin.token);
      await page.setViewportSize({ width: 390, height: 800 });
      await withSession(page, admin, "/notifications?tab=templates");
      await expect(page.getByTestId("template-json-hint")).toHaveCount(0);
      await page.getByTestId("template-kind").selectOption("disk");
      await expect(page.getByTestId("template-preview-en-US-title")).toContainText("web-01");
      await page.getByTestId("template-body").fill("Disk {{ facts.mountPoint }} at {{ facts.usage }}%\n{% if facts.usage > 90 %}act now");
      await expect(page.getByTestId(`template-preview-${locale}-problem`)).toContainText(tr(m, "notifications.templates.problems.at", { line: 2, column: 1 }));
      await page.getByTestId("template-body").fill("Disk {{ facts.mountPoint }} at {{ facts.usage }}%\n{% if facts.usage > 90 %}act now{% endif %}");
      await expect(page.getByTestId("template-preview-en-US-body")).toHaveText("Disk /var at 91.2%\nact now");
      await page.getByTestId("template-save").click();
      await expect(toast(page, tr(m, "notifications.templates.saved"))).toBeVisible();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
}
