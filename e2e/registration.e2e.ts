import type { Browser, Locator, Page } from "@playwright/test";
import { SECRET_BODY } from "../server/auth/secrets";
import { expect, PASSWORD, test, withSession, type Vigil } from "./fixtures";

// Closed registration after the first account: the closed /register, "anyone can register" and invite links on /users.

/** A newcomer: a fresh browser (no session) in the test's language. */
async function newcomer(browser: Browser, vigil: Vigil, locale: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: vigil.url, locale });
  return context.newPage();
}

/** Fills and sends the register form. */
async function fillRegister(page: Page, username: string) {
  const form = page.getByTestId("register-form");
  await form.locator("input[name=username]").fill(username);
  await form.locator("input[name=password]").fill(PASSWORD);
  await form.locator("input[name=confirmPassword]").fill(PASSWORD);
  await page.getByTestId("register-submit").click();
}

/**
 * Clicks a revoke button of the invite list. The list sits at the viewport's bottom right after creating invites, where
 * the "created" toasts slide in: centred first, the click cannot land on a toast arriving mid-click.
 */
async function clickRevoke(row: Locator) {
  const button = row.getByTestId("invite-revoke");
  await button.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await button.click();
}

/** Creates an invite link on /users with the given role and validity; returns the link shown. */
async function createInviteLink(page: Page, role: "viewer" | "editor" | "admin", hours: "24" | "168" | "720") {
  await page.getByTestId("invite-role").selectOption(role);
  await page.getByTestId("invite-validity").selectOption(hours);
  const link = page.getByTestId("invite-link");
  const before = (await link.count()) ? await link.inputValue() : "";
  await page.getByTestId("invite-create").click();
  await expect(link).toHaveValue(/\/register\?invite=/);
  await expect(link).not.toHaveValue(before);
  return link.inputValue();
}

for (const lang of [
  {
    locale: "zh-CN",
    closed: "注册已关闭。请联系管理员为你创建账户，或向你发送邀请链接。",
    panel: "注册设置",
    open: "允许任何人注册",
    opened: "已开放注册：现在任何人都可以注册",
    closedToast: "已关闭注册：只有受邀者可以注册",
    welcome: "注册成功，欢迎使用 Vigil！",
    invited: "你受邀以管理员身份加入，请在下方创建账户。",
    used: "此邀请链接已被使用",
    created: "邀请链接已创建",
    noPending: "没有待使用的邀请。",
    revokeDialog: "其链接将立即失效，此操作无法撤销。",
    revoked: "邀请已撤销",
    user: "编辑者",
    admin: "管理员",
    expires: "过期",
    createdBy: "由 alice 创建于",
  },
  {
    locale: "en-US",
    closed: "Registration is closed. Ask an administrator to create your account or to send you an invite link.",
    panel: "Registration",
    open: "Anyone can register",
    opened: "Registration opened: anyone can register now",
    closedToast: "Registration closed: only invited people can register",
    welcome: "Registration successful. Welcome to Vigil!",
    invited: "You are invited to join as an administrator. Create your account below.",
    used: "This invite link has already been used",
    created: "Invite link created",
    noPending: "No pending invites.",
    revokeDialog: "Its link stops working at once. This action cannot be undone.",
    revoked: "Invite revoked",
    user: "Editor",
    admin: "Admin",
    expires: "Expires",
    createdBy: "by alice",
  },
]) {
  test.describe(`registration (${lang.locale})`, () => {
    test.use({ locale: lang.locale });

    test("after the first account, /register says registration is closed and shows no form", async ({ page, vigil }) => {
      await vigil.register("alice");
      await page.goto("/register");
      const closed = page.getByTestId("register-closed");
      await expect(closed).toContainText(lang.closed);
      await expect(page.getByTestId("register-form")).toHaveCount(0);
      await expect(page.locator("input")).toHaveCount(0);
      await expect(page.getByTestId("register-first-run")).toHaveCount(0);
      await closed.getByTestId("register-closed-login").click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByTestId("login-form")).toBeVisible();
    });

    test("an admin turns on 'anyone can register': a newcomer registers and lands on /dashboard signed in", async ({ page, browser, vigil }) => {
      test.slow(); // three browser contexts (the admin, two newcomers): past 20 s beside npm test's other streams
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/users");
      const panel = page.getByTestId("registration-panel");
      await expect(panel).toContainText(lang.panel);
      await expect(page.getByTestId("invites-empty")).toHaveText(lang.noPending);
      const open = page.getByTestId("registration-open");
      await expect(page.getByText(lang.open, { exact: true })).toBeVisible();
      await expect(open).not.toBeChecked();
      await open.check();
      await expect(page.getByText(lang.opened)).toBeVisible();
      await expect(open).toBeChecked();
      await page.reload();
      await expect(page.getByTestId("registration-open")).toBeChecked();

      const carol = await newcomer(browser, vigil, lang.locale);
      await carol.goto("/register");
      await expect(carol.getByTestId("register-form")).toBeVisible();
      await expect(carol.getByTestId("register-closed")).toHaveCount(0);
      await fillRegister(carol, "carol");
      await expect(carol).toHaveURL(/\/dashboard$/);
      await expect(carol.getByText(lang.welcome)).toBeVisible();
      await carol.getByTestId("user-menu-button").click();
      await expect(carol.getByTestId("user-menu-username")).toHaveText("carol");
      await expect(carol.getByTestId("nav-users")).toHaveCount(0); // an ordinary user
      await carol.reload();
      await expect(carol).toHaveURL(/\/dashboard$/);

      // The admin sees the new account, and closes registration again.
      await page.reload();
      await expect(page.getByTestId("users-table")).toContainText("carol");
      await page.getByTestId("registration-open").uncheck();
      await expect(page.getByText(lang.closedToast)).toBeVisible();
      const dave = await newcomer(browser, vigil, lang.locale);
      await dave.goto("/register");
      await expect(dave.getByTestId("register-closed")).toContainText(lang.closed);
      await carol.context().close();
      await dave.context().close();
    });

    test("an invite link admits one newcomer with its role; used, it leaves the list and fails a second time", async ({ page, browser, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/users");
      const link = await createInviteLink(page, "admin", "720");
      await expect(page.getByText(lang.created)).toBeVisible();
      expect(link).toMatch(new RegExp(`^${vigil.url}/register\\?invite=vgl_inv_${SECRET_BODY}$`));
      await expect(page.getByTestId("invite-created")).toContainText(lang.admin);
      const rows = page.getByTestId("invite-row");
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(lang.admin);
      await expect(rows.first()).toContainText(lang.expires);
      await expect(rows.first()).toContainText(lang.createdBy);
      // Nobody can register without the link meanwhile.
      expect((await vigil.api("GET", "/api/config")).body.registrationOpen).toBe(false);

      const dave = await newcomer(browser, vigil, lang.locale);
      await dave.goto(link);
      await expect(dave.getByTestId("register-invite-role")).toHaveText(lang.invited);
      await expect(dave.getByTestId("register-closed")).toHaveCount(0);
      await fillRegister(dave, "dave");
      await expect(dave).toHaveURL(/\/dashboard$/);
      await expect(dave.getByText(lang.welcome)).toBeVisible();
      await dave.getByTestId("user-menu-button").click();
      await expect(dave.getByTestId("user-menu-username")).toHaveText("dave");
      await expect(dave.getByTestId("nav-users")).toBeVisible(); // the invite's role: admin

      // Used: gone from the admin's list (and the one-time link is not shown again).
      await page.reload();
      await expect(page.getByTestId("invites-empty")).toHaveText(lang.noPending);
      await expect(page.getByTestId("invite-row")).toHaveCount(0);
      await expect(page.getByTestId("invite-link")).toHaveCount(0);
      await expect(page.getByTestId("users-table")).toContainText("dave");

      // The same link a second time: said at once, no form; the server refuses it too; nobody signed in.
      const erin = await newcomer(browser, vigil, lang.locale);
      await erin.goto(link);
      await expect(erin.getByText(lang.used, { exact: true })).toBeVisible();
      await expect(erin.getByTestId("register-form")).toHaveCount(0);
      const again = await vigil.api("POST", "/api/auth/register", { username: "erin", password: PASSWORD, invite: new URL(link).searchParams.get("invite") });
      expect([again.status, again.body.code]).toEqual([403, "INVITE_INVALID"]);
      expect(await erin.evaluate(() => localStorage.getItem("token"))).toBeNull();
      await dave.context().close();
      await erin.context().close();
    });

    test("revoking an invite asks first, then removes it from the list and its link stops working", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/users");
      const first = await createInviteLink(page, "editor", "24");
      const second = await createInviteLink(page, "admin", "168");
      const rows = page.getByTestId("invite-row");
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(0)).toContainText(lang.user);
      await expect(rows.nth(1)).toContainText(lang.admin);

      await clickRevoke(rows.nth(0));
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(lang.revokeDialog);
      await page.getByTestId("confirm-dialog-cancel").click();
      await expect(dialog).toHaveCount(0);
      await expect(rows).toHaveCount(2);

      await clickRevoke(rows.nth(0));
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(page.getByText(lang.revoked)).toBeVisible();
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(lang.admin);
      await expect(page.getByTestId("invite-link")).toHaveValue(second); // the newest link is still on screen
      await page.reload();
      await expect(page.getByTestId("invite-row")).toHaveCount(1);
      const token = (href: string) => new URL(href).searchParams.get("invite");
      const refused = await vigil.api("POST", "/api/auth/register", { username: "mallory", password: PASSWORD, invite: token(first) });
      expect([refused.status, refused.body.code]).toEqual([403, "INVITE_INVALID"]);

      await clickRevoke(page.getByTestId("invite-row").first());
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(page.getByTestId("invite-row")).toHaveCount(0);
      await expect(page.getByTestId("invites-empty")).toHaveText(lang.noPending);
      expect((await vigil.api("GET", "/api/registration", undefined, admin.token)).body.invites).toEqual([]);
    });

    test("the registration panel fits a 390 px wide phone", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, admin, "/users");
      await createInviteLink(page, "editor", "168");
      await expect(page.getByTestId("invite-row")).toHaveCount(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      for (const id of ["registration-open", "invite-create", "invite-link", "invite-copy", "invite-revoke"]) {
        const box = (await page.getByTestId(id).boundingBox())!;
        expect({ id, right: box.x + box.width <= 390, left: box.x >= 0 }).toEqual({ id, right: true, left: true });
      }
    });
  });
}
