import { SECRET_BODY } from "../server/auth/secrets";
import { expect, test, withSession } from "./fixtures";
import { LANGUAGES, tr, toast } from "./i18n";

// API tokens on /profile in both languages: create one with a chosen scope (the secret shown once, copied), use it
// against the REST API from the test as a script would, within its scope, see its use noted, revoke it, and it stops
// working.


for (const [locale, m] of LANGUAGES) {
  test.describe(`API tokens (${locale})`, () => {
    test.use({ locale });

    test("create a token on /profile, call the API with it, revoke it and it stops working", async ({ page, context, vigil }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: vigil.url });
      const alice = await vigil.register("alice");
      await withSession(page, alice, "/profile");
      const card = page.getByTestId("tokens-card");
      await expect(card.getByTestId("tokens-empty")).toHaveText(tr(m, "tokens.empty"));

      // A name is required: said under the field, nothing sent.
      await card.getByTestId("token-create").click();
      await expect(card.getByTestId("token-name-error")).toHaveText(tr(m, "tokens.nameRequired"));
      expect((await vigil.api("GET", "/api/tokens", undefined, alice.token)).body.tokens).toEqual([]);

      // Read-only is the suggested scope; each choice says what it allows.
      await expect(card.getByTestId("token-scope")).toHaveValue("read");
      await expect(card.getByTestId("token-scope-help")).toHaveText(tr(m, "tokens.scopeHelp.read"));
      await card.getByTestId("token-name").fill("deploy script");
      await card.getByTestId("token-scope").selectOption("write");
      await expect(card.getByTestId("token-scope-help")).toHaveText(tr(m, "tokens.scopeHelp.write"));
      await card.getByTestId("token-expiry").selectOption("30");
      await card.getByTestId("token-create").click();
      await expect(toast(page, tr(m, "tokens.created"))).toBeVisible();

      // The secret, once, with its warning; Copy puts it on the clipboard.
      const panel = card.getByTestId("token-created");
      await expect(panel.getByTestId("token-once")).toHaveText(tr(m, "tokens.secretOnce"));
      const secret = await panel.getByTestId("token-secret").inputValue();
      expect(secret).toMatch(new RegExp(`^vgl_api_${SECRET_BODY}$`));
      await panel.getByTestId("token-copy").click();
      await expect(toast(page, tr(m, "tokens.secretCopied"))).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

      const row = card.getByTestId("token-row");
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId("token-name-cell")).toHaveText("deploy script");
      await expect(row.getByTestId("token-prefix")).toHaveText(`${secret.slice(0, 16)}…`);
      await expect(row.getByTestId("token-last-used")).toContainText(tr(m, "tokens.neverUsed"));
      await expect(row.getByTestId("token-expired")).toHaveCount(0);
      await expect(row.getByTestId("token-scope-badge")).toHaveText(tr(m, "tokens.scopes.write"));
      // The next token starts from read-only again.
      await expect(card.getByTestId("token-scope")).toHaveValue("read");

      // The secret works as a script would use it: it is alice, within its scope — she is the admin, but a read-write
      // token manages monitors, not accounts.
      const me = await vigil.api("GET", "/api/auth/me", undefined, secret);
      expect(me.status).toBe(200);
      expect(me.body.user.username).toBe("alice");
      expect((await vigil.api("POST", "/api/monitors", { name: "from a script", url: "http://127.0.0.1:9/" }, secret)).status).toBe(201);
      const users = await vigil.api("GET", "/api/users", undefined, secret);
      expect(users.status).toBe(403);
      expect(users.body.code).toBe("TOKEN_SCOPE");

      // After a reload the secret is gone for good; the list shows the token was used.
      await page.reload();
      await expect(card.getByTestId("token-row")).toHaveCount(1);
      await expect(card.getByTestId("token-created")).toHaveCount(0);
      await expect(page.getByText(secret)).toHaveCount(0);
      await expect(row.getByTestId("token-last-used")).not.toContainText(tr(m, "tokens.neverUsed"));

      // The same name again: the server's refusal, in this language.
      await card.getByTestId("token-name").fill("Deploy Script");
      await card.getByTestId("token-create").click();
      await expect(toast(page, tr(m, "errors.TOKEN_NAME_EXISTS"))).toBeVisible();
      await expect(card.getByTestId("token-row")).toHaveCount(1);

      // Revoke, confirmed in a dialog naming the token; it stops working at once.
      await row.getByTestId("token-revoke").click();
      const dialog = page.getByTestId("confirm-dialog");
      await expect(dialog).toContainText(tr(m, "tokens.confirmDelete.message", { name: "deploy script", prefix: secret.slice(0, 16) }));
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, tr(m, "tokens.deleted"))).toBeVisible();
      await expect(card.getByTestId("tokens-empty")).toBeVisible();
      const after = await vigil.api("GET", "/api/monitors", undefined, secret);
      expect(after.status).toBe(401);
      expect(after.body.success).toBe(false);
      // The page's own session is untouched.
      await expect(page).toHaveURL(/\/profile$/);
    });
  });
}
