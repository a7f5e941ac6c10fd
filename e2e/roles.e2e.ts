import { expect, test, withSession } from "./fixtures";
import { LANGUAGES, tr, toast } from "./i18n";

// Roles in the browser, both languages: a viewer sees the team's monitors, agents, channels and incidents without a
// button that changes anything, is told why, and meets a translated refusal if it tries anyway; an admin gives roles
// on /users and chooses the role of open registration.

for (const [locale, m] of LANGUAGES) {
  test.describe(`roles (${locale})`, () => {
    test.use({ locale });

    test("a viewer looks around: no create, edit, delete or check buttons; a form opened by its address says it is read-only", async ({ page, vigil }) => {
      test.slow(); // a dozen pages on a busy two-core machine
      const admin = await vigil.register("alice");
      const monitor = (await vigil.api("POST", "/api/monitors", { name: "Shop API", url: "http://127.0.0.1:9/health", headers: [{ name: "Authorization", value: "Bearer s3cret" }], active: false }, admin.token)).body.monitor;
      await vigil.api("POST", "/api/notifications/channels", { name: "Ops hook", type: "webhook", config: { url: "http://127.0.0.1:9/hook" } }, admin.token);
      await vigil.api("POST", "/api/incidents", { title: "Slow checkout", impact: "minor", update: { state: "investigating", message: "Looking." } }, admin.token);
      const vera = await vigil.register("vera");
      expect((await vigil.api("PUT", `/api/users/${vera.user.id}`, { username: "vera", role: "viewer" }, admin.token)).status).toBe(200);
      const session = (await vigil.api("POST", "/api/auth/login", { username: "vera", password: "correct horse" })).body;

      await withSession(page, session, "/monitors");
      await expect(page.getByTestId("viewer-note")).toHaveText(tr(m, "roles.viewerNote"));
      await expect(page.getByText("Shop API")).toBeVisible();
      await expect(page.getByTestId("monitor-create-button")).toHaveCount(0);
      await expect(page.getByTestId(`monitor-delete-${monitor.id}`)).toHaveCount(0);

      await page.goto(`/monitors/${monitor.id}`);
      await expect(page.getByTestId("monitor-name")).toHaveText("Shop API");
      for (const id of ["monitor-edit-button", "monitor-delete-button", "monitor-pause-button", "monitor-check-button", "maintenance-start-30"]) {
        await expect(page.getByTestId(id)).toHaveCount(0);
      }
      await expect(page.getByTestId("notifications-link")).toBeVisible();
      expect(await page.content()).not.toContain("s3cret");

      await page.goto("/notifications");
      await expect(page.getByText("Ops hook")).toBeVisible();
      await expect(page.getByTestId("channels-add")).toHaveCount(0);
      await page.goto("/incidents");
      await expect(page.getByText("Slow checkout")).toBeVisible();
      await expect(page.getByTestId("incidents-create-button")).toHaveCount(0);
      await page.goto("/agents");
      await expect(page.getByTestId("agent-create-button")).toHaveCount(0);

      // Straight to a form by its address: no form to fill in for nothing, the read-only notice in its place.
      for (const path of ["/monitors/create", `/monitors/edit/${monitor.id}`, "/agents/create", "/incidents/new", "/maintenance/create"]) {
        await page.goto(path);
        await expect(page.getByTestId("read-only")).toContainText(tr(m, "roles.readOnly.message"));
        await expect(page.locator("form")).toHaveCount(0);
        await expect(page).toHaveTitle(new RegExp(tr(m, "roles.readOnly.title")));
      }
      // A change tried anyway (through the API with the viewer's session) is refused in the viewer's language.
      expect((await vigil.api("POST", "/api/monitors", { name: "Sneaky", url: "http://127.0.0.1:9/" }, session.token)).status).toBe(403);
      expect((await vigil.api("GET", "/api/monitors", undefined, admin.token)).body.monitors).toHaveLength(1);

      // Tokens: read-only is all a viewer is offered.
      await page.goto("/profile");
      await expect(page.getByTestId("token-scope").locator("option")).toHaveCount(1);
    });

    test("a viewer meets no invitation to install an agent: the empty states say an editor or admin installs them", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const vera = await vigil.register("vera");
      expect((await vigil.api("PUT", `/api/users/${vera.user.id}`, { username: "vera", role: "viewer" }, admin.token)).status).toBe(200);
      const session = (await vigil.api("POST", "/api/auth/login", { username: "vera", password: "correct horse" })).body;

      await withSession(page, session, "/agents");
      await expect(page.getByTestId("agents-empty-message")).toHaveText(tr(m, "agents.empty.viewerMessage"));
      await expect(page.getByTestId("agents-empty-create")).toHaveCount(0);
      await expect(page.getByTestId("agent-create-button")).toHaveCount(0);

      await page.goto("/dashboard");
      await expect(page.getByTestId("dashboard-agents-empty")).toContainText(tr(m, "dashboard.editorInstallsAgents"));
      await expect(page.getByTestId("dashboard-agents-empty-action")).toHaveCount(0);
      await expect(page.getByTestId("dashboard-monitors-empty")).toContainText(tr(m, "dashboard.editorCreatesMonitors"));
      await expect(page.getByTestId("dashboard-monitors-empty-action")).toHaveCount(0);
      await expect(page.getByText(tr(m, "dashboard.addFirstAgent"))).toHaveCount(0);

      // The editor still gets the invitation, and the guide.
      await withSession(page, admin, "/dashboard");
      await expect(page.getByTestId("dashboard-agents-empty-action")).toHaveText(tr(m, "dashboard.addFirstAgent"));
      await page.goto("/agents");
      await expect(page.getByTestId("agents-empty-message")).toHaveText(tr(m, "agents.empty.message"));
      await page.getByTestId("agents-empty-create").click();
      await expect(page).toHaveURL(/\/agents\/create$/);
      await expect(page.getByTestId("read-only")).toHaveCount(0);
    });

    test("an admin gives roles on /users and chooses what open registration gives", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/users/create");
      await page.locator("input[name=username]").fill("victor");
      await page.locator("input[name=password]").fill("correct horse");
      await page.locator("input[name=confirmPassword]").fill("correct horse");
      const role = page.locator("select[name=role]");
      await expect(role.locator("option")).toHaveText(["viewer", "editor", "admin"].map((r) => `${tr(m, `users.roles.${r}`)} — ${tr(m, `users.roleHints.${r}`)}`));
      await role.selectOption("viewer");
      await page.getByTestId("user-create-submit").click();
      await expect(page.getByTestId("users-table")).toContainText("victor");
      await expect(page.locator("[data-role=viewer]")).toHaveText(tr(m, "users.roles.viewer"));
      const victor = (await vigil.api("GET", "/api/users", undefined, admin.token)).body.users.find((u: { username: string }) => u.username === "victor");
      expect(victor.role).toBe("viewer");

      await page.goto("/users");
      await expect(page.getByTestId("registration-role")).toHaveValue("viewer");
      await page.getByTestId("registration-role").selectOption("editor");
      await expect(toast(page, tr(m, "users.registration.roleSaved"))).toBeVisible();
      expect((await vigil.api("GET", "/api/registration", undefined, admin.token)).body.role).toBe("editor");
    });
  });
}

test("a user stored in the browser before a role change is refreshed as the app starts", async ({ page, vigil }) => {
  await vigil.register("alice");
  const bob = await vigil.register("bob");
  // As an older Vigil left it (the editor role was "user"), and since then an admin made bob a viewer.
  await withSession(page, { token: bob.token, user: { ...bob.user, role: "user" } }, "/404-bootstrap");
  const admin = await vigil.api("POST", "/api/auth/login", { username: "alice", password: "correct horse" });
  await vigil.api("PUT", `/api/users/${bob.user.id}`, { username: "bob", role: "viewer" }, admin.body.token);
  await page.goto("/monitors");
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").role)).toBe("viewer");
  await expect(page.getByTestId("monitor-create-button")).toHaveCount(0);
});
