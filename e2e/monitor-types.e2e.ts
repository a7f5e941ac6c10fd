// The monitor form and detail page for the check types http (with assertions), tcp, dns and push (ping: ping.e2e.ts),
// in both languages: client validation per type, a server refusal shown under its field, creation, the detail page's
// facts, and for push the URL a script calls (called here with fetch), its curl lines and replacing it.
import type { Locator } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from "node:net";
import { resolve } from "node:path";
import { expect, withSession, type Vigil } from "./fixtures";
import { createMonitor, formOf, test, type Session } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

/** A TCP listener that accepts and closes connections. */
async function startTcpListener(): Promise<{ port: number; server: TcpServer; close: () => Promise<void> }> {
  const server = createTcpServer((socket) => socket.end());
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return { port, server, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/**
 * server/monitors/types/dns/responder.ts on 127.0.0.1 (it needs Bun's UDP socket, and these tests run under Node:
 * it runs in a Bun child, e2e/dns-responder.ts).
 */
async function startDnsResponder(zone: Record<string, Record<string, string[]>>): Promise<{ port: number; stop: () => void }> {
  const child: ChildProcess = spawn(resolve("node_modules/.bin/bun"), [resolve("e2e/dns-responder.ts"), JSON.stringify(zone)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const port = await new Promise<number>((done, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`DNS responder did not start: ${out}`)), 10_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /port (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        done(Number(m[1]));
      }
    });
    child.on("exit", (code) => fail(new Error(`DNS responder exited with ${code}: ${out}`)));
  });
  return {
    port,
    stop: () => {
      child.stdin!.end();
      child.kill();
    },
  };
}

/** The message the server gives for a refused monitor body (what the form must show under the field). */
async function refusal(vigil: Vigil, session: Session, body: Record<string, unknown>, code: string): Promise<string> {
  const res = await vigil.api("POST", "/api/monitors", body, session.token);
  expect(res.status).toBe(400);
  expect(res.body.code).toBe(code);
  return res.body.message as string;
}

/** The names of the tag chips inside a part of the page (without their × button). */
const tagNames = (scope: Locator) => scope.getByTestId("tag").locator(":scope > span");

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

for (const [locale, m] of LANGUAGES) {
  test.describe(`monitor check types (${locale})`, () => {
    test.use({ locale });

    test("http: the type chooser, assertions, tags, a JSON path the server refuses, then the detail page", async ({ page, vigil, target: site }) => {
      const session = await vigil.register("alice");
      site.body("/health", JSON.stringify({ status: "ok", queue: [1, 2, 3] }), "application/json");
      await withSession(page, session, "/monitors/create");
      const { form, field, radio, error, submit } = formOf(page, m);

      // Four labelled choices with a hint each; http by default, with its assertions.
      await expect(page.getByRole("radiogroup", { name: tr(m, "monitors.form.type") })).toBeVisible();
      for (const type of ["http", "tcp", "dns", "push"]) {
        await expect(page.getByTestId(`monitor-type-option-${type}`)).toContainText(tr(m, `monitors.form.typeHints.${type}`));
      }
      await expect(radio("http")).toBeChecked();
      await expect(page.getByTestId("monitor-assertions")).toBeVisible();

      await submit();
      await expect(error("name")).toHaveText(tr(m, "monitors.validation.nameRequired"));
      await expect(error("url")).toHaveText(tr(m, "monitors.validation.urlRequired"));

      await field("name").fill("Shop API");
      await field("url").fill("ftp://shop.test/health");
      await field("timeout").fill("10");
      await field("maxResponseTime").fill("10000");
      await field("tlsExpiryDays").fill("400");
      await field("keyword").fill("x".repeat(501));
      await submit();
      await expect(error("name")).toHaveCount(0);
      await expect(error("url")).toHaveText(tr(m, "monitors.validation.urlInvalid"));
      await expect(error("maxResponseTime")).toHaveText(tr(m, "monitors.validation.maxResponseTimeTooLong"));
      await expect(error("tlsExpiryDays")).toHaveText(tr(m, "monitors.validation.tlsExpiryDaysInvalid"));
      await expect(error("keyword")).toHaveText(tr(m, "monitors.validation.keywordTooLong"));
      await expect(page.getByTestId("form-error")).toHaveText(tr(m, "monitors.form.fixErrors"));
      await expect(field("url")).toBeFocused();
      await field("maxResponseTime").fill("70000");
      await expect(error("maxResponseTime")).toHaveText(tr(m, "monitors.validation.maxResponseTimeInvalid"));

      // Tags: Enter and commas add, Backspace and × remove, a too long one is refused and kept for correction.
      const tags = field("tags");
      const chips = tagNames(page.getByTestId("monitor-tags"));
      await tags.fill("prod");
      await tags.press("Enter");
      await tags.fill("api,");
      await tags.pressSequentially("eu");
      await tags.press(",");
      await expect(chips).toHaveText(["prod", "api", "eu"]);
      await tags.press("Backspace");
      await expect(chips).toHaveText(["prod", "api"]);
      await tags.fill("x".repeat(33));
      await tags.press("Enter");
      await expect(error("tags")).toHaveText(tr(m, "monitors.validation.tagTooLong"));
      await expect(chips).toHaveText(["prod", "api"]);
      await tags.fill("PROD");
      await expect(error("tags")).toHaveCount(0);
      await tags.press("Enter"); // the same tag whatever its case: merged
      await expect(chips).toHaveText(["prod", "api"]);
      await page.getByRole("button", { name: tr(m, "monitors.form.removeTag", { tag: "api" }) }).click();
      await expect(chips).toHaveText(["prod"]);
      await tags.fill("api");
      await tags.press("Enter");

      // Switching the type shows that type's fields and keeps what was typed for the others.
      await radio("tcp").check();
      await expect(field("url")).toHaveCount(0);
      await expect(page.getByTestId("monitor-assertions")).toHaveCount(0);
      await field("host").fill("db.internal");
      await radio("http").check();
      await expect(field("url")).toHaveValue("ftp://shop.test/health");
      await expect(field("keyword")).toHaveValue("x".repeat(501));

      // A JSON path is judged by the server: its precise sentence shows under the field.
      const badPath = "$.status ==";
      const sentence = await refusal(vigil, session, { name: "probe", url: site.url("/health"), jsonPath: badPath }, "INVALID_JSON_PATH");
      await field("url").fill(site.url("/health"));
      await field("maxResponseTime").fill("5000");
      await field("tlsExpiryDays").fill("");
      await field("keyword").fill("ok");
      await form.locator("input[name=keywordCaseSensitive]").check();
      // A new connection (and TLS handshake) per check: off by default, labelled and explained, turned on here.
      const fresh = form.locator("input[name=freshConnection]");
      await expect(fresh).not.toBeChecked();
      await expect(form.getByText(tr(m, "monitors.form.freshConnectionHint"))).toBeVisible();
      await form.getByLabel(tr(m, "monitors.form.freshConnection")).check();
      await expect(fresh).toBeChecked();
      await field("jsonPath").fill(badPath);
      await submit();
      await expect(error("jsonPath")).toHaveText(tr(m, "errors.INVALID_JSON_PATH", { message: sentence }));
      await expect(page.getByTestId("form-error")).toHaveText(tr(m, "monitors.form.fixErrors"));
      await expect(field("jsonPath")).toBeFocused();
      expect((await vigil.api("GET", "/api/monitors", undefined, session.token)).body.monitors).toHaveLength(0);

      // An example fills the field; the server's sentence goes with the change.
      await page.getByTestId("monitor-jsonpath-examples").getByRole("button", { name: '$.status == "ok"' }).click();
      await expect(field("jsonPath")).toHaveValue('$.status == "ok"');
      await expect(error("jsonPath")).toHaveCount(0);
      await submit();
      await expect(toast(page, tr(m, "monitors.created"))).toBeVisible();
      await expect(page).toHaveURL(/\/monitors\/\d+$/);

      // The detail page: type, tags, assertions; the first check passed them all.
      await expect(page.getByTestId("monitor-type")).toHaveAttribute("data-type", "http");
      await expect(page.getByTestId("monitor-type")).toContainText(tr(m, "monitors.types.http"));
      await expect(tagNames(page.getByTestId("monitor-tags"))).toHaveText(["prod", "api"]);
      await expect(page.getByTestId("monitor-url")).toContainText(site.url("/health"));
      await expect(page.getByTestId("monitor-info-type")).toHaveText(tr(m, "monitors.types.http"));
      await expect(page.getByTestId("monitor-info-keyword")).toContainText(`${tr(m, "monitors.detail.info.mustContain")} ok`);
      await expect(page.getByTestId("monitor-info-keyword")).toContainText(tr(m, "monitors.detail.info.caseSensitive"));
      await expect(page.getByTestId("monitor-info-jsonpath")).toHaveText('$.status == "ok"');
      await expect(page.getByTestId("monitor-info-max-response-time")).toHaveText("5,000 ms");
      await expect(page.getByTestId("monitor-info-tls-expiry-days")).toHaveText(tr(m, "monitors.detail.info.off"));
      await expect(page.getByTestId("monitor-info-fresh-connection")).toHaveText(tr(m, "monitors.detail.info.connectionFresh"));
      await expect(page.getByTestId("monitor-info-fresh-connection").locator("xpath=preceding-sibling::dt")).toHaveText(tr(m, "monitors.detail.info.connection"));
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "up", { timeout: 10_000 });

      const [saved] = (await vigil.api("GET", "/api/monitors", undefined, session.token)).body.monitors;
      expect(saved).toMatchObject({
        type: "http",
        name: "Shop API",
        tags: ["prod", "api"],
        url: site.url("/health"),
        timeout: 10,
        keyword: "ok",
        keywordInvert: false,
        keywordCaseSensitive: true,
        jsonPath: '$.status == "ok"',
        maxResponseTime: 5000,
        tlsExpiryDays: null,
        ignoreTls: false,
        freshConnection: true,
      });
    });

    test("tcp: chosen with the keyboard, host and port checked, a forbidden address refused, then up and down", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      const listener = await startTcpListener();
      try {
        await withSession(page, session, "/monitors/create");
        const { field, radio, error, submit } = formOf(page, m);

        // Arrow keys move the choice in the radio group.
        await radio("http").focus();
        await page.keyboard.press("ArrowRight");
        await expect(radio("tcp")).toBeChecked();
        await expect(radio("tcp")).toBeFocused();
        await expect(field("url")).toHaveCount(0);
        await expect(field("method")).toHaveCount(0);
        await expect(field("timeout")).toBeVisible();

        await submit();
        await expect(error("name")).toHaveText(tr(m, "monitors.validation.nameRequired"));
        await expect(error("host")).toHaveText(tr(m, "monitors.validation.hostRequired"));
        await expect(error("port")).toHaveText(tr(m, "monitors.validation.portRequired"));
        await field("name").fill("Postgres");
        await field("host").fill("https://db.example.com");
        await field("port").fill("70000");
        await expect(error("host")).toHaveText(tr(m, "monitors.validation.hostScheme"));
        await expect(error("port")).toHaveText(tr(m, "monitors.validation.portInvalid"));
        await field("host").fill("db.example.com:5432");
        await expect(error("host")).toHaveText(tr(m, "monitors.validation.hostInvalid"));

        // The address policy is the server's: its refusal shows under the host.
        const sentence = await refusal(vigil, session, { name: "probe", type: "tcp", host: "169.254.169.254", port: 80 }, "TARGET_FORBIDDEN");
        await field("host").fill("169.254.169.254");
        await field("port").fill(String(listener.port));
        await submit();
        await expect(error("host")).toHaveText(tr(m, "errors.TARGET_FORBIDDEN", { message: sentence }));
        await expect(field("host")).toBeFocused();

        await field("host").fill("127.0.0.1");
        await expect(error("host")).toHaveCount(0);
        await submit();
        await expect(toast(page, tr(m, "monitors.created"))).toBeVisible();
        await expect(page).toHaveURL(/\/monitors\/\d+$/);

        await expect(page.getByTestId("monitor-type")).toHaveAttribute("data-type", "tcp");
        await expect(page.getByTestId("monitor-type")).toContainText(tr(m, "monitors.types.tcp"));
        await expect(page.getByTestId("monitor-target")).toHaveText(`127.0.0.1:${listener.port}`);
        await expect(page.getByTestId("monitor-info-host")).toHaveText("127.0.0.1");
        await expect(page.getByTestId("monitor-info-port")).toHaveText(String(listener.port));
        await expect(page.getByTestId("monitor-info-method")).toHaveCount(0);
        await expect(page.getByTestId("monitor-info-tls")).toHaveCount(0);
        await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "up", { timeout: 10_000 });

        // A manual check: no HTTP status for a TCP connection; closed port → refused.
        await page.getByTestId("monitor-check-button").click();
        await expect(page.getByTestId("monitor-check-result")).toHaveAttribute("data-status", "up");
        await expect(page.getByTestId("monitor-check-result-http")).toHaveCount(0);
        await listener.close();
        await page.getByTestId("monitor-check-button").click();
        await expect(page.getByTestId("monitor-check-result")).toHaveAttribute("data-status", "down");
        await expect(page.getByTestId("monitor-check-result-error")).toHaveText(tr(m, "monitors.checkErrors.REFUSED"));
        await expect(page.getByTestId("monitor-last-error")).toHaveText(tr(m, "monitors.checkErrors.REFUSED"));
      } finally {
        await listener.close().catch(() => {});
      }
    });

    test("dns: name, record type, resolver and expected answer against a local responder", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      const dns = await startDnsResponder({ "app.vigil.test": { A: ["10.1.2.3", "10.1.2.4"] } });
      try {
        await withSession(page, session, "/monitors/create");
        const { field, radio, error, submit } = formOf(page, m);
        await radio("dns").check();
        await expect(page.getByLabel(tr(m, "monitors.form.dnsName"))).toBeVisible();
        await expect(field("dnsRecordType")).toHaveValue("A");
        await expect(field("url")).toHaveCount(0);
        await expect(field("port")).toHaveCount(0);

        await submit();
        await expect(error("name")).toHaveText(tr(m, "monitors.validation.nameRequired"));
        await expect(error("host")).toHaveText(tr(m, "monitors.validation.dnsNameRequired"));
        await field("name").fill("App DNS");
        await field("host").fill("http://app.vigil.test");
        await field("dnsResolver").fill("dns.google");
        await expect(error("host")).toHaveText(tr(m, "monitors.validation.hostScheme"));
        await expect(error("dnsResolver")).toHaveText(tr(m, "monitors.validation.resolverInvalid"));
        await field("host").fill("app.vigil.test");

        // The resolver is contacted, so the address policy applies: the server's refusal shows under it.
        const sentence = await refusal(vigil, session, { name: "probe", type: "dns", host: "app.vigil.test", dnsResolver: "169.254.169.254" }, "TARGET_FORBIDDEN");
        await field("dnsResolver").fill("169.254.169.254");
        await submit();
        await expect(error("dnsResolver")).toHaveText(tr(m, "errors.TARGET_FORBIDDEN", { message: sentence }));
        await expect(field("dnsResolver")).toBeFocused();

        // A server whose resolver rule is stricter than the form's: INVALID_RESOLVER lands under the same field.
        await page.route("**/api/monitors", (route) =>
          route.request().method() === "POST"
            ? route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ success: false, code: "INVALID_RESOLVER", message: "x" }) })
            : route.fallback(),
        );
        await field("dnsResolver").fill(`127.0.0.1:${dns.port}`);
        await submit();
        await expect(error("dnsResolver")).toHaveText(tr(m, "errors.INVALID_RESOLVER"));
        await page.unrouteAll();

        await field("dnsRecordType").selectOption("A");
        await field("dnsExpected").fill("10.1.2.4");
        await submit();
        await expect(toast(page, tr(m, "monitors.created"))).toBeVisible();
        await expect(page).toHaveURL(/\/monitors\/\d+$/);

        await expect(page.getByTestId("monitor-type")).toHaveAttribute("data-type", "dns");
        await expect(page.getByTestId("monitor-type")).toContainText(tr(m, "monitors.types.dns"));
        await expect(page.getByTestId("monitor-target")).toContainText("app.vigil.test A");
        await expect(page.getByTestId("monitor-info-dns-name")).toHaveText("app.vigil.test");
        await expect(page.getByTestId("monitor-info-dns-record")).toHaveText("A");
        await expect(page.getByTestId("monitor-info-dns-resolver")).toHaveText(`127.0.0.1:${dns.port}`);
        await expect(page.getByTestId("monitor-info-dns-expected")).toHaveText("10.1.2.4");
        await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "up", { timeout: 10_000 });
        await page.getByTestId("monitor-check-button").click();
        await expect(page.getByTestId("monitor-check-result")).toHaveAttribute("data-status", "up");
        await expect(page.getByTestId("monitor-check-result-http")).toHaveCount(0);
      } finally {
        dns.stop();
      }
    });

    test("push: no timeout, grace checked; the URL and curl lines; calls turn it up and down; a new URL", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      await withSession(page, session, "/monitors/create");
      const { field, radio, error, submit } = formOf(page, m);
      await radio("push").check();
      await expect(page.getByTestId("monitor-push-intro")).toHaveText(tr(m, "monitors.form.pushIntro"));
      await expect(field("timeout")).toHaveCount(0);
      await expect(field("url")).toHaveCount(0);
      await expect(page.getByLabel(tr(m, "monitors.form.pushInterval"))).toBeVisible();

      await field("pushGrace").fill("4000");
      await submit();
      await expect(error("name")).toHaveText(tr(m, "monitors.validation.nameRequired"));
      await expect(error("pushGrace")).toHaveText(tr(m, "monitors.validation.pushGraceInvalid"));
      await field("name").fill("Nightly backup");
      await field("interval").fill("60");
      await field("pushGrace").fill("120");
      await field("retries").fill("0");
      await field("tags").fill("backup");
      await submit(); // the tag typed but not yet added goes with the form
      await expect(toast(page, tr(m, "monitors.created"))).toBeVisible();
      await expect(page).toHaveURL(/\/monitors\/\d+$/);

      const [created] = (await vigil.api("GET", "/api/monitors", undefined, session.token)).body.monitors;
      expect(created).toMatchObject({ type: "push", interval: 60, pushGrace: 120, retries: 0, tags: ["backup"], status: "pending" });
      const url = `${vigil.url}/api/push/${created.pushToken}`;

      await expect(page.getByTestId("monitor-type")).toHaveAttribute("data-type", "push");
      await expect(page.getByTestId("monitor-type")).toContainText(tr(m, "monitors.types.push"));
      await expect(page.getByTestId("monitor-check-button")).toHaveCount(0);
      await expect(page.getByTestId("monitor-info-timeout")).toHaveCount(0);
      await expect(page.getByTestId("monitor-info-push-grace")).toHaveText(tr(m, "monitors.detail.info.seconds", { count: 120 }));
      const card = page.getByTestId("monitor-push");
      await expect(card).toContainText(tr(m, "monitors.detail.push.intro", { interval: tr(m, "monitors.duration.minutes", { count: 60 }), grace: 120 }));
      await expect(card.getByTestId("monitor-push-url")).toHaveText(url);
      await expect(card.getByTestId("monitor-push-curl-up")).toHaveText(`curl -fsS -m 10 --retry 3 "${url}"`);
      await expect(card.getByTestId("monitor-push-curl-down")).toHaveText(`curl -fsS -m 10 "${url}?status=down&msg=backup%20failed"`);
      await expect(card.getByTestId("monitor-push-curl-post")).toHaveText(`curl -fsS -m 10 -X POST "${url}"`);
      await expect(card.getByTestId("monitor-push-last")).toHaveText(tr(m, "monitors.detail.push.never"));
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "pending");

      // The script's call: up.
      expect((await fetch(url)).status).toBe(200);
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "up");
      await expect(card.getByTestId("monitor-push-last")).not.toHaveText(tr(m, "monitors.detail.push.never"));

      // A failed run reports down with its message (calls less than a second apart are refused: wait).
      await sleep(1100);
      expect((await fetch(`${url}?status=down&msg=backup%20failed`)).status).toBe(200);
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "down");
      await expect(page.getByTestId("monitor-last-error")).toHaveText(tr(m, "monitors.checkErrors.PUSH_REPORTED", { detail: "backup failed" }));

      // A new URL, behind a confirmation: the old one stops working.
      await card.getByTestId("monitor-push-regenerate").click();
      const dialog = page.getByTestId("confirm-dialog");
      await expect(dialog).toContainText(tr(m, "monitors.detail.push.regenerateMessage"));
      await dialog.getByTestId("confirm-dialog-cancel").click();
      await expect(dialog).toHaveCount(0);
      await expect(card.getByTestId("monitor-push-url")).toHaveText(url);
      await card.getByTestId("monitor-push-regenerate").click();
      await dialog.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, tr(m, "monitors.detail.push.regenerated"))).toBeVisible();
      await expect(card.getByTestId("monitor-push-url")).not.toHaveText(url);
      const fresh = (await card.getByTestId("monitor-push-url").textContent())!;
      expect(fresh.startsWith(`${vigil.url}/api/push/`)).toBe(true);
      await expect(card.getByTestId("monitor-push-curl-up")).toHaveText(`curl -fsS -m 10 --retry 3 "${fresh}"`);

      const old = await fetch(url);
      expect(old.status).toBe(404);
      expect((await old.json()).code).toBe("PUSH_TOKEN_UNKNOWN");
      await sleep(1100);
      expect((await fetch(fresh, { method: "POST" })).status).toBe(200);
      await expect(page.getByTestId("monitor-status")).toHaveAttribute("data-status", "up");
      await expect(page.getByTestId("monitor-last-error")).toHaveCount(0);
    });

    test("edit: switching an http monitor to tcp and back: it keeps only the type it was saved as", async ({ page, vigil, target }) => {
      const session = await vigil.register("alice");
      const listener = await startTcpListener();
      try {
        const id = await createMonitor(vigil, session, { name: "Site", url: target.url("/health"), keyword: "ok", tags: ["web"] });
        await withSession(page, session, `/monitors/edit/${id}`);
        const { field, radio, submit } = formOf(page, m);
        await expect(radio("http")).toBeChecked();
        await expect(field("url")).toHaveValue(target.url("/health"));
        await expect(field("keyword")).toHaveValue("ok");
        await expect(tagNames(page.getByTestId("monitor-tags"))).toHaveText(["web"]);
        await expect(page.locator("input[name=freshConnection]")).not.toBeChecked();

        await radio("tcp").check();
        await field("host").fill("127.0.0.1");
        await field("port").fill(String(listener.port));
        await submit();
        await expect(toast(page, tr(m, "monitors.updated"))).toBeVisible();
        await expect(page).toHaveURL(new RegExp(`/monitors/${id}$`));
        await expect(page.getByTestId("monitor-type")).toHaveAttribute("data-type", "tcp");
        await expect(page.getByTestId("monitor-target")).toHaveText(`127.0.0.1:${listener.port}`);

        await page.getByTestId("monitor-edit-button").click();
        await expect(radio("tcp")).toBeChecked();
        await expect(field("host")).toHaveValue("127.0.0.1");
        await radio("http").check();
        // A monitor stores its own type's settings only: saved as tcp, its http settings are gone.
        await expect(field("url")).toHaveValue("");
        await expect(field("keyword")).toHaveValue("");
        await field("url").fill(target.url("/health"));
        await field("keyword").fill("ok");
        // Back on http: turn on a new connection per check with this save.
        await expect(page.locator("input[name=freshConnection]")).not.toBeChecked();
        await page.getByLabel(tr(m, "monitors.form.freshConnection")).check();
        await submit();
        await expect(toast(page, tr(m, "monitors.updated")).first()).toBeVisible(); // the first save's toast may still show
        await expect(page.getByTestId("monitor-type")).toHaveAttribute("data-type", "http");
        await expect(page.getByTestId("monitor-url")).toContainText(target.url("/health"));
        await expect(page.getByTestId("monitor-info-keyword")).toContainText("ok");
        await expect(page.getByTestId("monitor-info-fresh-connection")).toHaveText(tr(m, "monitors.detail.info.connectionFresh"));
        expect((await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token)).body.monitor.freshConnection).toBe(true);

        // And off again: the detail says connections are reused.
        await page.getByTestId("monitor-edit-button").click();
        await expect(page.locator("input[name=freshConnection]")).toBeChecked();
        await page.getByLabel(tr(m, "monitors.form.freshConnection")).uncheck();
        await submit();
        await expect(page).toHaveURL(new RegExp(`/monitors/${id}$`));
        await expect(page.getByTestId("monitor-info-fresh-connection")).toHaveText(tr(m, "monitors.detail.info.connectionReused"));
        expect((await vigil.api("GET", `/api/monitors/${id}`, undefined, session.token)).body.monitor.freshConnection).toBe(false);
      } finally {
        await listener.close();
      }
    });
  });
}
