import { startTestProvider, type TestProvider } from "../server/auth/sso/test-provider";
import { expect, test, withSession } from "./fixtures";
import { LANGUAGES, tr, toast } from "./i18n";

// Single sign-on in the browser, both languages, against a local OpenID Connect provider this test runs: an admin sets
// it up on /users (redirect URI, discovery test), someone new signs in with "Sign in with …" and lands on the
// dashboard with a new account, a refusal at the provider reads in the page's language, and password sign-in turned
// off leaves only the button.

let provider: TestProvider;
test.beforeAll(async () => {
  provider = await startTestProvider();
});
test.afterAll(async () => provider.close());

for (const [locale, m] of LANGUAGES) {
  test.describe(`single sign-on (${locale})`, () => {
    test.use({ locale });

    test("set up on /users, a new person signs in with the provider, a refusal explained, passwords turned off", async ({ page, browser, vigil }) => {
      const admin = await vigil.register("admin", "admin@example.com");
      await withSession(page, admin, "/users");
      const card = page.getByTestId("sso-settings");
      await expect(card).toContainText(tr(m, "sso.title"));
      await expect(page.getByTestId("sso-redirect-uri")).toHaveText(`${vigil.url}/api/auth/sso/callback`);
      await page.getByTestId("sso-name").fill("Test IdP");
      await page.getByTestId("sso-issuer").fill(provider.issuer);
      await page.getByTestId("sso-clientId").fill(provider.clientId);
      await page.getByTestId("sso-clientSecret").fill(provider.clientSecret);
      await page.getByTestId("sso-test").click();
      await expect(card).toContainText(tr(m, "sso.tested", { issuer: provider.issuer }));
      await page.getByTestId("sso-enabled").check();
      await page.getByTestId("sso-save").click();
      await expect(toast(page, tr(m, "sso.saved"))).toBeVisible();
      await expect(page.getByTestId("sso-clientSecret")).toHaveValue("");

      // Someone new: the button, the provider, back signed in with a new (viewer) account.
      provider.user = { sub: `carol-${locale}`, email: "carol@example.com", email_verified: true, preferred_username: "carol" };
      const guest = await (await browser.newContext({ baseURL: vigil.url, locale })).newPage();
      await guest.goto("/login");
      const button = guest.getByTestId("login-sso");
      await expect(button).toHaveText(tr(m, "auth.sso.signInWith", { name: "Test IdP" }));
      await expect(guest.getByTestId("login-form")).toBeVisible();
      await button.click();
      await expect(guest).toHaveURL(/\/dashboard$/);
      await expect(toast(guest, tr(m, "auth.login.success"))).toBeVisible();
      expect(await guest.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}"))).toMatchObject({ username: "carol", role: "viewer" });

      // The person says no at the provider: back on the sign-in page, told so.
      await guest.evaluate(() => localStorage.clear());
      provider.denyNext = true;
      await guest.goto("/login");
      await guest.getByTestId("login-sso").click();
      await expect(guest).toHaveURL(/\/login$/);
      await expect(guest.getByText(tr(m, "auth.sso.errors.SSO_DENIED"))).toBeVisible();

      // Passwords off: refused until the admin has signed in through the provider; then only the button remains.
      await page.getByTestId("sso-password-login").uncheck();
      await page.getByTestId("sso-save").click();
      await expect(card).toContainText(tr(m, "errors.SSO_NOT_TRIED"));
      provider.user = { sub: `admin-${locale}`, email: "admin@example.com", email_verified: true };
      const adminSso = await (await browser.newContext({ baseURL: vigil.url, locale })).newPage();
      await adminSso.goto("/login");
      await adminSso.getByTestId("login-sso").click();
      await expect(adminSso).toHaveURL(/\/dashboard$/);
      await adminSso.goto("/users");
      await adminSso.getByTestId("sso-password-login").uncheck();
      await adminSso.getByTestId("sso-save").click();
      await expect(toast(adminSso, tr(m, "sso.saved"))).toBeVisible();
      await guest.goto("/login");
      await expect(guest.getByTestId("login-password-off")).toHaveText(tr(m, "auth.sso.passwordOff"));
      await expect(guest.getByTestId("login-form")).toHaveCount(0);
      await expect(guest.getByTestId("login-sso")).toBeVisible();
    });
  });
}
