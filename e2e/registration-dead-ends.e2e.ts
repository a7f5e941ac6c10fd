import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import type { Page } from "@playwright/test";
import { expect, PASSWORD, test, withSession, type Vigil } from "./fixtures";
import { LANGUAGES, tr } from "./i18n";

// Issue 22, registration without dead ends: closed registration offers no register button (home, /login), an invite
// link is checked as /register opens (used, expired, revoked, unknown: said at once, no form; valid: its role and
// expiry), the form shows every field's problem at once; the footer links the API docs and the user menu the API
// tokens. Each screen in both languages, on a desktop and on a 390 px phone.

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Nothing sticks out sideways: the page is no wider than the screen. */
async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function createInvite(vigil: Vigil, adminToken: string, role: "admin" | "editor" | "viewer", hours = 24): Promise<{ token: string; invite: { id: number; expiresAt: number } }> {
  const made = await vigil.api("POST", "/api/registration/invites", { role, hours }, adminToken);
  expect(made.status).toBe(201);
  return made.body;
}

/** Ages an invite past its expiry, as time would, in the running server's database (WAL: a second writer is fine). */
function expireInvite(vigil: Vigil, id: number) {
  const script = `import { Database } from "bun:sqlite";
const db = new Database(process.env.DB);
db.exec("PRAGMA busy_timeout = 5000");
db.run("UPDATE invites SET expires_at = ? WHERE id = ?", [Date.now() - 1000, Number(process.env.ID)]);`;
  execFileSync(resolve("node_modules/.bin/bun"), ["-e", script], { env: { ...process.env, DB: join(vigil.dataDir, "vigil.db"), ID: String(id) } });
}

/** Where the API tokens card starts, from the top of the window (the navbar above it is 64 px tall). */
const cardTop = async (page: Page) => (await page.getByTestId("tokens-card").boundingBox())!.y;

/** The API tokens card is scrolled to: at the top under the navbar, or as near as the page's height allows. */
const scrolledToTokens = (page: Page) =>
  page.evaluate(() => {
    const card = document.querySelector('[data-testid="tokens-card"]');
    if (!card) return false; // the page is still loading
    const top = card.getBoundingClientRect().top;
    const atBottom = window.scrollY > 0 && window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    return (top >= 0 && top < 120) || atBottom;
  });

for (const [locale, m] of LANGUAGES) {
  test.describe(`registration without dead ends (${locale})`, () => {
    test.use({ locale });
    // Each test walks its screens on both a desktop and a phone.
    test.beforeEach(() => test.slow());

    test("closed registration: home and /login offer no register, they say to ask for an invite", async ({ page, vigil }) => {
      await vigil.register("alice");
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.goto("/");
        await expect(page.getByTestId("home-invite-only")).toHaveText(tr(m, "home.inviteOnly"));
        await expect(page.getByTestId("home-login")).toBeVisible();
        await expect(page.getByTestId("home-register")).toHaveCount(0);
        await expect(page.locator('a[href="/register"]')).toHaveCount(0);
        await fitsWidth(page, viewport.width);

        await page.getByTestId("home-login").click();
        await expect(page).toHaveURL(/\/login$/);
        await expect(page.getByTestId("login-ask-invite")).toHaveText(tr(m, "auth.login.askForInvite"));
        await expect(page.getByTestId("login-register-link")).toHaveCount(0);
        await expect(page.locator('a[href="/register"]')).toHaveCount(0);
        await fitsWidth(page, viewport.width);
      }
    });

    test("a fresh instance offers creating the administrator; opened registration offers registering again", async ({ page, vigil }) => {
      await page.goto("/");
      const register = page.getByTestId("home-register");
      await expect(register).toHaveText(tr(m, "home.createAdmin"));
      await expect(page.getByTestId("home-invite-only")).toHaveCount(0);
      await page.goto("/login");
      await expect(page.getByTestId("login-register-link")).toHaveText(tr(m, "auth.login.registerLink"));
      await page.goto("/");
      await register.click();
      await expect(page.getByTestId("register-first-run")).toHaveText(tr(m, "auth.register.firstRun"));
      await expect(page.getByTestId("register-form")).toBeVisible();

      const admin = await vigil.register("alice");
      expect((await vigil.api("PUT", "/api/registration", { open: true }, admin.token)).status).toBe(200);
      await page.goto("/");
      await expect(page.getByTestId("home-register")).toHaveText(tr(m, "home.getStarted"));
      await expect(page.getByTestId("home-invite-only")).toHaveCount(0);
      await page.goto("/login");
      await expect(page.getByTestId("login-register-link")).toBeVisible();
      await expect(page.getByTestId("login-ask-invite")).toHaveCount(0);
    });

    test("used, expired, revoked, unknown and malformed invite links say so at once: no form, no welcome", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const used = await createInvite(vigil, admin.token, "admin");
      expect((await vigil.api("POST", "/api/auth/register", { username: "carol", password: PASSWORD, invite: used.token })).status).toBe(201);
      const expired = await createInvite(vigil, admin.token, "editor", 1);
      expireInvite(vigil, expired.invite.id);
      const revoked = await createInvite(vigil, admin.token, "editor");
      expect((await vigil.api("DELETE", `/api/registration/invites/${revoked.invite.id}`, undefined, admin.token)).status).toBe(200);
      const cases = [
        { link: used.token, state: "used" },
        { link: expired.token, state: "expired" },
        { link: revoked.token, state: "invalid" },
        { link: `vgl_inv_${"Q".repeat(43)}`, state: "invalid" },
        { link: "vgl_inv_cut-short", state: "invalid" },
      ] as const;

      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const { link, state } of cases) {
          await page.goto(`/register?invite=${encodeURIComponent(link)}`);
          const panel = page.getByTestId(`register-invite-${state}`);
          await expect(panel.getByTestId(`register-invite-${state}-message`)).toHaveText(tr(m, `auth.register.invite.${state}.message`));
          await expect(page.getByText(tr(m, `auth.register.invite.${state}.title`), { exact: true })).toBeVisible();
          await expect(page.getByTestId("register-form")).toHaveCount(0);
          await expect(page.locator("input")).toHaveCount(0);
          await expect(page.getByTestId("register-invited")).toHaveCount(0);
          // Registration is closed: no way to register without an invite is offered either.
          await expect(page.getByTestId("register-without-invite")).toHaveCount(0);
          await fitsWidth(page, viewport.width);
        }
      }
      await page.getByTestId("register-invite-invalid-login").click();
      await expect(page).toHaveURL(/\/login$/);

      // Once anyone may register, a dead invite link points to the plain form.
      expect((await vigil.api("PUT", "/api/registration", { open: true }, admin.token)).status).toBe(200);
      await page.goto(`/register?invite=${used.token}`);
      await page.getByTestId("register-without-invite").click();
      await expect(page).toHaveURL(/\/register$/);
      await expect(page.getByTestId("register-form")).toBeVisible();
    });

    test("a valid invite shows its role and expiry above the form, and admits its newcomer with that role", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const asAdmin = await createInvite(vigil, admin.token, "admin", 24);
      const asUser = await createInvite(vigil, admin.token, "editor", 720);
      const expiresText = (at: number) =>
        page.evaluate(([time, lang]) => new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short", hourCycle: "h23" }).format(time), [at, locale] as const);

      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const [made, role] of [[asAdmin, "admin"], [asUser, "editor"]] as const) {
          await page.goto(`/register?invite=${made.token}`);
          const notice = page.getByTestId("register-invited");
          await expect(notice.getByTestId("register-invite-role")).toHaveText(tr(m, `auth.register.invitedAs.${role}`));
          const time = await expiresText(made.invite.expiresAt);
          await expect(notice.getByTestId("register-invite-expires")).toHaveText(tr(m, "auth.register.inviteExpires", { time }));
          await expect(page.getByTestId("register-form")).toBeVisible();
          await expect(page.getByTestId("register-first-run")).toHaveCount(0);
          await fitsWidth(page, viewport.width);
        }
      }

      const form = page.getByTestId("register-form");
      await form.locator("input[name=username]").fill("dave");
      await form.locator("input[name=password]").fill(PASSWORD);
      await form.locator("input[name=confirmPassword]").fill(PASSWORD);
      await page.getByTestId("register-submit").click();
      await expect(page).toHaveURL(/\/dashboard$/);
      const me = await vigil.api("POST", "/api/auth/login", { username: "dave", password: PASSWORD });
      expect(me.body.user.role).toBe("editor");
      // Spent: opening the link again says so at once.
      await page.evaluate(() => localStorage.clear());
      await page.goto(`/register?invite=${asUser.token}`);
      await expect(page.getByTestId("register-invite-used")).toBeVisible();
      await expect(page.getByTestId("register-form")).toHaveCount(0);

      // Revoked while the form is open: the server's refusal is shown on the form, nobody is signed in.
      await page.goto(`/register?invite=${asAdmin.token}`);
      await expect(page.getByTestId("register-invited")).toBeVisible();
      expect((await vigil.api("DELETE", `/api/registration/invites/${asAdmin.invite.id}`, undefined, admin.token)).status).toBe(200);
      await form.locator("input[name=username]").fill("erin");
      await form.locator("input[name=password]").fill(PASSWORD);
      await form.locator("input[name=confirmPassword]").fill(PASSWORD);
      await page.getByTestId("register-submit").click();
      await expect(form.getByTestId("form-error")).toHaveText(tr(m, "errors.INVITE_INVALID"));
      expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    });

    test("the register form shows every field's problem at once, and each clears as it is fixed", async ({ page, vigil }) => {
      let sent = 0;
      page.on("request", (r) => r.url().endsWith("/api/auth/register") && sent++);
      const errorOf = (field: string) => page.getByTestId(`register-${field}-error`);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.goto("/register");
        const form = page.getByTestId("register-form");
        await page.getByTestId("register-submit").click();
        await expect(errorOf("username")).toHaveText(tr(m, "validation.usernameRequired"));
        await expect(errorOf("password")).toHaveText(tr(m, "validation.passwordRequired"));
        await expect(errorOf("confirmPassword")).toHaveText(tr(m, "auth.register.confirmRequired"));
        await expect(errorOf("email")).toHaveCount(0); // optional

        await form.locator("input[name=username]").fill("a b");
        await form.locator("input[name=email]").fill("not-an-email");
        await form.locator("input[name=password]").fill("short");
        await form.locator("input[name=confirmPassword]").fill("other");
        await page.getByTestId("register-submit").click();
        const all = [
          ["username", "validation.usernameSpaces"],
          ["email", "validation.emailInvalid"],
          ["password", "validation.passwordLength"],
          ["confirmPassword", "validation.passwordsDoNotMatch"],
        ] as const;
        for (const [field, key] of all) {
          await expect(errorOf(field)).toHaveText(tr(m, key));
          await expect(errorOf(field)).toBeInViewport();
          await expect(form.locator(`input[name=${field}]`)).toHaveAttribute("aria-invalid", "true");
        }
        await fitsWidth(page, viewport.width);

        // Fixing one field clears its problem only.
        await form.locator("input[name=username]").fill("alice");
        await expect(errorOf("username")).toHaveCount(0);
        await expect(errorOf("email")).toBeVisible();
        await expect(errorOf("password")).toBeVisible();
      }
      expect(sent).toBe(0);

      const form = page.getByTestId("register-form");
      await form.locator("input[name=email]").fill("alice@example.com");
      await form.locator("input[name=password]").fill(PASSWORD);
      await form.locator("input[name=confirmPassword]").fill(PASSWORD);
      await expect(page.locator('[data-testid$="-error"]')).toHaveCount(0);
      await page.getByTestId("register-submit").click();
      await expect(page).toHaveURL(/\/dashboard$/);
      expect(sent).toBe(1);
      expect((await vigil.api("GET", "/api/config")).body.firstRun).toBe(false);
    });

    test("the footer links the API documentation; the user menu opens the API tokens section of /profile", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await withSession(page, admin, "/dashboard");
        await page.getByTestId("user-menu-button").click();
        const item = page.getByTestId("nav-api-tokens");
        await expect(item).toHaveText(tr(m, "nav.apiTokens"));
        await item.click();
        await expect(page).toHaveURL(/\/profile#api-tokens$/);
        await expect.poll(() => scrolledToTokens(page)).toBe(true);
        await expect(page.getByTestId("tokens-card")).toContainText(tr(m, "tokens.title"));
        // On /profile already, scrolled back to the top: the menu still brings the section into view.
        await page.goto("/profile");
        await expect(page.getByTestId("tokens-card")).toBeVisible();
        expect(await cardTop(page)).toBeGreaterThan(200);
        await page.getByTestId("user-menu-button").click();
        await page.getByTestId("nav-api-tokens").click();
        await expect.poll(() => scrolledToTokens(page)).toBe(true);
        // And again from /profile#api-tokens itself, after scrolling away.
        await page.evaluate(() => window.scrollTo(0, 0));
        await expect.poll(() => scrolledToTokens(page)).toBe(false);
        await page.getByTestId("user-menu-button").click();
        await page.getByTestId("nav-api-tokens").click();
        await expect.poll(() => scrolledToTokens(page)).toBe(true);

        const docs = page.getByTestId("footer-api-docs");
        await expect(docs).toHaveText(tr(m, "footer.apiDocs"));
        await expect(docs).toHaveAttribute("href", "/api/docs");
        await fitsWidth(page, viewport.width);
      }
      await page.getByTestId("footer-api-docs").click();
      await expect(page).toHaveURL(/\/api\/docs$/);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Vigil");
    });
  });
}
