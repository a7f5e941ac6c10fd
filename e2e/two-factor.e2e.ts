import { Secret, TOTP } from "otpauth";
import { expect, PASSWORD, test, withSession } from "./fixtures";
import { LANGUAGES, tr, toast } from "./i18n";

// Two-factor sign-in in the browser, both languages: set up on /profile (QR code, secret, first code, recovery codes),
// sign in with a code and with a recovery code, an admin's reset and the "everyone" policy.

/** The code an authenticator shows, one step ahead (the set-up's own code is spent). */
const codeFor = (secret: string, aheadMs = 30_000) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: Date.now() + aheadMs });

for (const [locale, m] of LANGUAGES) {
  test.describe(`two-factor sign-in (${locale})`, () => {
    test.use({ locale });

    test("set it up on the profile, sign in with a code, then with a recovery code; an admin resets it", async ({ page, browser, vigil }) => {
      test.slow(); // four sign-ins and two wrong passwords: argon2 at its real cost, on a shared machine
      const admin = await vigil.register("alice");
      const bob = await vigil.register("bob");
      await withSession(page, bob, "/profile");
      const card = page.getByTestId("two-factor-card");
      await expect(card).toHaveAttribute("data-enabled", "false");
      // Setting up asks for the current password before showing the key.
      await page.getByTestId("two-factor-setup").click();
      await expect(page.getByTestId("two-factor-error")).toHaveText(tr(m, "errors.CURRENT_PASSWORD_REQUIRED"));
      await page.getByTestId("two-factor-password").fill("not my password");
      await page.getByTestId("two-factor-setup").click();
      await expect(page.getByTestId("two-factor-error")).toHaveText(tr(m, "errors.WRONG_CURRENT_PASSWORD"));
      await expect(page.getByTestId("two-factor-qr")).toHaveCount(0);
      await page.getByTestId("two-factor-password").fill(PASSWORD);
      await page.getByTestId("two-factor-setup").click();
      await expect(page.getByTestId("two-factor-qr")).toBeVisible();
      const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
      await page.getByTestId("two-factor-code").fill("000000");
      await page.getByTestId("two-factor-enable").click();
      await expect(page.getByTestId("two-factor-error")).toHaveText(tr(m, "errors.TWO_FACTOR_WRONG_CODE"));
      await page.getByTestId("two-factor-code").fill(codeFor(secret, 0));
      await page.getByTestId("two-factor-enable").click();
      await expect(page.getByTestId("recovery-code")).toHaveCount(10);
      const recovery = await page.getByTestId("recovery-code").allTextContents();
      await page.getByTestId("two-factor-done").click();
      await expect(card).toHaveAttribute("data-enabled", "true");
      await expect(page.getByTestId("two-factor-left")).toHaveText(tr(m, "twoFactor.on_other", { count: 10 }));
      // The password form now asks for a code too.
      await expect(page.getByTestId("password-code")).toBeVisible();

      // Signing in: the password, then the code.
      const fresh = await (await browser.newContext({ baseURL: vigil.url, locale })).newPage();
      await fresh.goto("/login");
      await fresh.locator("input[name=username]").fill("bob");
      await fresh.locator("input[name=password]").fill(PASSWORD);
      await fresh.getByTestId("login-submit").click();
      await expect(fresh.getByTestId("login-code-form")).toContainText(tr(m, "auth.twoFactor.prompt"));
      await fresh.getByTestId("login-code").fill("123456");
      await fresh.getByTestId("login-code-submit").click();
      await expect(fresh.getByText(tr(m, "errors.TWO_FACTOR_WRONG_CODE"))).toBeVisible();
      await fresh.getByTestId("login-code").fill(codeFor(secret));
      await fresh.getByTestId("login-code-submit").click();
      await expect(fresh).toHaveURL(/\/dashboard$/);

      // Again, with a recovery code instead.
      await fresh.evaluate(() => localStorage.clear());
      await fresh.goto("/login");
      await fresh.locator("input[name=username]").fill("bob");
      await fresh.locator("input[name=password]").fill(PASSWORD);
      await fresh.getByTestId("login-submit").click();
      await fresh.getByTestId("login-code").fill(recovery[0]!);
      await fresh.getByTestId("login-code-submit").click();
      await expect(fresh).toHaveURL(/\/dashboard$/);
      await fresh.goto("/profile");
      await expect(fresh.getByTestId("two-factor-left")).toHaveText(tr(m, "twoFactor.on_other", { count: 9 }));

      // A lost phone: the admin resets it; bob signs in with the password alone.
      await withSession(page, admin, `/users/${bob.user.id}`);
      await page.getByTestId("two-factor-reset").click();
      await expect(toast(page, tr(m, "twoFactor.resetDone"))).toBeVisible();
      await expect(page.getByTestId("two-factor-reset")).toHaveCount(0);
      expect((await vigil.api("POST", "/api/auth/login", { username: "bob", password: PASSWORD })).body.token).toBeTruthy();
      await fresh.context().close();
    });

    test("an admin requires it of everyone: a user without it is sent to set it up", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const bob = await vigil.register("bob");
      await withSession(page, admin, "/users");
      await page.getByTestId("two-factor-policy").check();
      await expect(toast(page, tr(m, "twoFactor.requireSaved"))).toBeVisible();
      expect((await vigil.api("GET", "/api/auth/2fa", undefined, admin.token)).body.required).toBe(true);

      await withSession(page, bob, "/monitors");
      await expect(page).toHaveURL(/\/profile$/);
      await expect(page.getByTestId("two-factor-required")).toHaveText(tr(m, "twoFactor.required"));
      await page.getByTestId("two-factor-password").fill(PASSWORD);
      await page.getByTestId("two-factor-setup").click();
      const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
      await page.getByTestId("two-factor-code").fill(codeFor(secret, 0));
      await page.getByTestId("two-factor-enable").click();
      await page.getByTestId("two-factor-done").click();
      await page.goto("/monitors");
      await expect(page).toHaveURL(/\/monitors$/);
      await expect(page.getByTestId("monitor-create-button")).toBeVisible();
    });
  });
}
