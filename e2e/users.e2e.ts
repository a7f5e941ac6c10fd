import { expect, PASSWORD, test, withSession } from "./fixtures";

for (const lang of [
  { locale: "zh-CN", title: "用户管理", dialog: "确定要删除用户“bob”吗？此操作无法撤销。", deleted: "用户已删除", created: "用户已创建", loading: "加载" },
  { locale: "en-US", title: "User management", dialog: 'Are you sure you want to delete the user "bob"? This action cannot be undone.', deleted: "User deleted", created: "User created", loading: "Loading" },
]) {
  test.describe(`users (${lang.locale})`, () => {
    test.use({ locale: lang.locale });

    test("the list shows every user, a dash for no email, and deletes through a dialog", async ({ page, vigil }) => {
      const admin = await vigil.register("alice", "alice@example.com");
      const bob = await vigil.register("bob");
      await withSession(page, admin, "/users");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang.title);
      const table = page.getByTestId("users-table");
      await expect(table.locator("tbody tr")).toHaveCount(2);
      const bobRow = page.getByTestId(`user-row-${bob.user.id}`);
      await expect(bobRow).toContainText("bob");
      await expect(page.getByTestId(`user-email-${bob.user.id}`)).toHaveText("-");
      await expect(page.getByTestId(`user-row-${admin.user.id}`)).toContainText("alice@example.com");

      await page.getByTestId(`user-delete-${bob.user.id}`).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(lang.dialog);
      await page.getByTestId("confirm-dialog-cancel").click();
      await expect(dialog).toHaveCount(0);
      await expect(bobRow).toBeVisible();

      await page.getByTestId(`user-delete-${bob.user.id}`).click();
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(bobRow).toHaveCount(0);
      await expect(page.getByText(lang.deleted)).toBeVisible();
      const list = await vigil.api("GET", "/api/users", undefined, admin.token);
      expect(list.body.users.map((u: { username: string }) => u.username)).toEqual(["alice"]);
    });

    test("an admin creates a user and edits their role", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/users");
      await page.getByTestId("user-create-button").click();
      await expect(page).toHaveURL(/\/users\/create$/);
      const form = page.getByTestId("user-create-form");
      await form.locator("input[name=username]").fill("carol");
      await form.locator("input[name=email]").fill("carol@example.com");
      await form.locator("input[name=password]").fill(PASSWORD);
      await form.locator("input[name=confirmPassword]").fill(PASSWORD);
      await page.getByTestId("user-create-submit").click();
      await expect(page.getByText(lang.created)).toBeVisible();
      await expect(page).toHaveURL(/\/users$/);
      const list = await vigil.api("GET", "/api/users", undefined, admin.token);
      const carol = list.body.users.find((u: { username: string }) => u.username === "carol");
      expect(carol).toMatchObject({ email: "carol@example.com", role: "editor" });

      await page.getByTestId(`user-edit-${carol.id}`).click();
      await expect(page).toHaveURL(new RegExp(`/users/${carol.id}$`));
      const edit = page.getByTestId("user-edit-form");
      await expect(edit.locator("input[name=username]")).toHaveValue("carol");
      await edit.locator("select[name=role]").selectOption("admin");
      await page.getByTestId("user-edit-submit").click();
      await expect(edit.getByTestId("form-success")).toBeVisible();
      const after = await vigil.api("GET", `/api/users/${carol.id}`, undefined, admin.token);
      expect(after.body.user.role).toBe("admin");
    });
  });
}

test("your own row offers no Delete; the server refuses it anyway", async ({ page, vigil }) => {
  const admin = await vigil.register("alice");
  const bob = await vigil.register("bob");
  await withSession(page, admin, "/users");
  await expect(page.getByTestId(`user-delete-${bob.user.id}`)).toBeVisible();
  await expect(page.getByTestId(`user-delete-${admin.user.id}`)).toHaveCount(0);
  expect((await vigil.api("DELETE", `/api/users/${admin.user.id}`, undefined, admin.token)).status).toBe(409);
});
