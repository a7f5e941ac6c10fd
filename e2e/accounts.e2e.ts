import { expect, PASSWORD, signIn, test, withSession } from "./fixtures";

test.describe("accounts (zh-CN)", () => {
  test("first run: the first account registers, becomes admin and is signed in on /dashboard", async ({ page, vigil }) => {
    await page.goto("/register");
    await expect(page.getByTestId("register-first-run")).toHaveText("这是第一个账户，它将成为管理员。");
    const form = page.getByTestId("register-form");
    await form.locator("input[name=username]").fill("alice");
    await form.locator("input[name=email]").fill("alice@example.com");
    await form.locator("input[name=password]").fill(PASSWORD);
    await form.locator("input[name=confirmPassword]").fill(PASSWORD);
    await page.getByTestId("register-submit").click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("注册成功，欢迎使用 Vigil！")).toBeVisible();

    await page.getByTestId("user-menu-button").click();
    await expect(page.getByTestId("user-menu-username")).toHaveText("alice");
    await expect(page.getByTestId("nav-users")).toHaveText("用户管理");
    const stored = await page.evaluate(() => [localStorage.getItem("token"), JSON.parse(localStorage.getItem("user")!)]);
    expect(stored[0]).toBeTruthy();
    expect(stored[1]).toMatchObject({ username: "alice", role: "admin" });
    // The stored token is a real session, and it survives a reload.
    expect((await vigil.api("GET", "/api/auth/me", undefined, stored[0] as string)).body.user).toMatchObject({ username: "alice", role: "admin" });
    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    // Registration closed behind the first account.
    expect((await vigil.api("GET", "/api/config")).body).toMatchObject({ firstRun: false, registrationOpen: false });
  });

  test("register: mismatched passwords show an error and send nothing", async ({ page }) => {
    let sent = 0;
    page.on("request", (r) => r.url().endsWith("/api/auth/register") && sent++);
    await page.goto("/register");
    const form = page.getByTestId("register-form");
    await form.locator("input[name=username]").fill("alice");
    await form.locator("input[name=password]").fill(PASSWORD);
    await form.locator("input[name=confirmPassword]").fill("something else");
    await page.getByTestId("register-submit").click();
    await expect(form.getByTestId("register-confirmPassword-error")).toHaveText("两次输入的密码不一致");
    expect(sent).toBe(0);
  });

  test("register: a taken username is reported in Chinese", async ({ page, vigil }) => {
    const admin = await vigil.register("alice");
    expect((await vigil.api("PUT", "/api/registration", { open: true }, admin.token)).status).toBe(200);
    await page.goto("/register");
    const form = page.getByTestId("register-form");
    await form.locator("input[name=username]").fill("Alice");
    await form.locator("input[name=password]").fill(PASSWORD);
    await form.locator("input[name=confirmPassword]").fill(PASSWORD);
    await page.getByTestId("register-submit").click();
    await expect(form.getByTestId("form-error")).toHaveText("用户名已存在");
  });

  test("login: a wrong password is refused in Chinese", async ({ page, vigil }) => {
    await vigil.register("alice");
    await page.goto("/login");
    const form = page.getByTestId("login-form");
    await form.locator("input[name=username]").fill("alice");
    await form.locator("input[name=password]").fill("wrong password");
    await page.getByTestId("login-submit").click();
    await expect(form.getByTestId("form-error")).toHaveText("用户名或密码错误");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("logout clears the session and goes to /login", async ({ page, vigil }) => {
    await vigil.register("alice");
    await signIn(page, "alice");
    await page.getByTestId("user-menu-button").click();
    await page.getByTestId("logout-button").click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem("token"), localStorage.getItem("user")])).toEqual([null, null]);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a 401 from the server clears the session and goes to /login", async ({ page, vigil }) => {
    const admin = await vigil.register("alice");
    await withSession(page, admin, "/users");
    await expect(page.getByTestId("users-table")).toBeVisible();
    // The password is reset elsewhere: every older token dies.
    await vigil.api("POST", `/api/users/${admin.user.id}/change-password`, { currentPassword: PASSWORD, newPassword: "another password" }, admin.token);
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  });

  test("a stored token without a user is checked with /api/auth/me", async ({ page, vigil }) => {
    const admin = await vigil.register("alice");
    await page.goto("/");
    await page.evaluate((token) => localStorage.setItem("token", token), admin.token);
    await page.goto("/profile");
    await expect(page.getByTestId("profile-form").locator("input[name=username]")).toHaveValue("alice");
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem("user")))!)).toMatchObject({ username: "alice" });

    await page.evaluate(() => localStorage.setItem("token", "forged.token.value"));
    await page.evaluate(() => localStorage.removeItem("user"));
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
  });

  test("only admins see User management; others get a forbidden page", async ({ page, vigil }) => {
    await vigil.register("alice");
    const bob = await vigil.register("bob");
    await withSession(page, bob);
    await page.getByTestId("user-menu-button").click();
    await expect(page.getByTestId("user-menu-username")).toHaveText("bob");
    await expect(page.getByTestId("nav-profile")).toBeVisible();
    await expect(page.getByTestId("nav-users")).toHaveCount(0);
    await page.goto("/users");
    await expect(page.getByTestId("forbidden")).toContainText("只有管理员可以访问此页面。");
  });

  test("profile: saving shows success and updates the signed-in user", async ({ page, vigil }) => {
    const admin = await vigil.register("alice");
    await withSession(page, admin, "/profile");
    const form = page.getByTestId("profile-form");
    await form.locator("input[name=username]").fill("alice2");
    await form.locator("input[name=email]").fill("alice2@example.com");
    await page.getByTestId("profile-submit").click();
    await expect(form.getByTestId("form-success")).toHaveText("个人资料已更新");
    await page.getByTestId("user-menu-button").click();
    await expect(page.getByTestId("user-menu-username")).toHaveText("alice2");
    const me = await vigil.api("GET", "/api/auth/me", undefined, admin.token);
    expect(me.body.user).toMatchObject({ username: "alice2", email: "alice2@example.com" });
  });

  test("profile: a username taken by someone else is an error", async ({ page, vigil }) => {
    const admin = await vigil.register("alice");
    await vigil.register("bob");
    await withSession(page, admin, "/profile");
    const form = page.getByTestId("profile-form");
    await form.locator("input[name=username]").fill("bob");
    await page.getByTestId("profile-submit").click();
    await expect(form.getByTestId("form-error")).toHaveText("用户名已存在");
  });

  test("password change: a mismatch sends nothing; success clears the fields and keeps you signed in", async ({ page, vigil }) => {
    const admin = await vigil.register("alice");
    await withSession(page, admin, "/profile");
    let sent = 0;
    page.on("request", (r) => r.url().includes("/change-password") && sent++);
    const form = page.getByTestId("password-form");
    await form.locator("input[name=currentPassword]").fill(PASSWORD);
    await form.locator("input[name=newPassword]").fill("new password 1");
    await form.locator("input[name=confirmPassword]").fill("new password 2");
    await page.getByTestId("password-submit").click();
    await expect(form.getByTestId("form-error")).toHaveText("两次输入的密码不一致");
    expect(sent).toBe(0);

    await form.locator("input[name=confirmPassword]").fill("new password 1");
    await page.getByTestId("password-submit").click();
    // Checking the old password and hashing the new one is deliberately slow (argon2), more so on a loaded machine.
    await expect(form.getByTestId("form-success")).toHaveText("密码已修改", { timeout: 15_000 });
    expect(sent).toBe(1);
    for (const name of ["currentPassword", "newPassword", "confirmPassword"]) await expect(form.locator(`input[name=${name}]`)).toHaveValue("");
    // Still signed in with the fresh token; the old password no longer works.
    await page.reload();
    await expect(page).toHaveURL(/\/profile$/);
    expect((await vigil.api("POST", "/api/auth/login", { username: "alice", password: PASSWORD })).status).toBe(401);
    expect((await vigil.api("POST", "/api/auth/login", { username: "alice", password: "new password 1" })).status).toBe(200);
  });

  test("password change: a wrong current password is reported", async ({ page, vigil }) => {
    const admin = await vigil.register("alice");
    await withSession(page, admin, "/profile");
    const form = page.getByTestId("password-form");
    await form.locator("input[name=currentPassword]").fill("not my password");
    await form.locator("input[name=newPassword]").fill("new password 1");
    await form.locator("input[name=confirmPassword]").fill("new password 1");
    await page.getByTestId("password-submit").click();
    await expect(form.getByTestId("form-error")).toHaveText("当前密码不正确");
    await expect(page).toHaveURL(/\/profile$/);
  });
});

test.describe("accounts (en-US)", () => {
  test.use({ locale: "en-US" });

  test("register, login and profile speak English", async ({ page }) => {
    await page.goto("/register");
    await expect(page.getByTestId("register-first-run")).toHaveText("This is the first account: it becomes the administrator.");
    const form = page.getByTestId("register-form");
    await form.locator("input[name=username]").fill("alice");
    await form.locator("input[name=password]").fill(PASSWORD);
    await form.locator("input[name=confirmPassword]").fill("mismatch!");
    await page.getByTestId("register-submit").click();
    await expect(form.getByTestId("register-confirmPassword-error")).toHaveText("Passwords do not match");
    await form.locator("input[name=confirmPassword]").fill(PASSWORD);
    await page.getByTestId("register-submit").click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Registration successful. Welcome to Vigil!")).toBeVisible();
    await page.getByTestId("user-menu-button").click();
    await expect(page.getByTestId("user-menu-username")).toHaveText("alice");
    await page.getByTestId("logout-button").click();
    await expect(page).toHaveURL(/\/login$/);

    const login = page.getByTestId("login-form");
    await login.locator("input[name=username]").fill("alice");
    await login.locator("input[name=password]").fill("wrong password");
    await page.getByTestId("login-submit").click();
    await expect(login.getByTestId("form-error")).toHaveText("Incorrect username or password");
    await signIn(page, "alice");

    await page.goto("/profile");
    await page.getByTestId("profile-submit").click();
    await expect(page.getByTestId("profile-form").getByTestId("form-success")).toHaveText("Profile updated");
    const pw = page.getByTestId("password-form");
    await pw.locator("input[name=currentPassword]").fill(PASSWORD);
    await pw.locator("input[name=newPassword]").fill("new password 1");
    await pw.locator("input[name=confirmPassword]").fill("new password 1");
    await page.getByTestId("password-submit").click();
    await expect(pw.getByTestId("form-success")).toHaveText("Password changed", { timeout: 15_000 });
  });
});
