import { expect, test, withSession } from "./fixtures";
import { host, registerAgent } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

// An agent that registered but never reported (an install that stopped half way), in both languages: the list (cards
// and table) and the detail say so with its registration time, show the command that finishes the install, and remove
// it; installing again from the same host replaces it instead of leaving a twin. The browser's clock runs 5 minutes
// after the registration.

const FIVE_MINUTES = 5 * 60_000;

for (const [locale, m] of LANGUAGES) {
  test.describe(`never-reported agents (${locale})`, () => {
    test.use({ locale });

    test("the list and the detail say 'never reported (registered 5 min ago)', with the command to finish and a remove action", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const ghost = await registerAgent(vigil, admin, "ghost-1");
      const other = await registerAgent(vigil, admin, "ghost-2");
      const { createdAt } = (await vigil.api("GET", `/api/agents/${ghost.id}`, undefined, admin.token)).body.agent;
      await page.clock.setFixedTime(createdAt + FIVE_MINUTES);
      await withSession(page, admin, "/agents");

      const neverReported = tr(m, "agents.neverReported.title", { time: `5${m.common.units.m}` });
      const finish = tr(m, "agents.neverReported.finish", { host: "ghost-1" });
      await expect(page.getByTestId(`agent-status-${ghost.id}`)).toHaveText(m.agents.status.connecting);
      await expect(page.getByTestId(`agent-last-seen-${ghost.id}`)).toHaveText(neverReported);
      const card = page.getByTestId(`agent-never-reported-${ghost.id}`);
      await expect(card).toContainText(finish);
      await expect(card).toContainText(m.agents.neverReported.again);
      await expect(page.getByTestId(`agent-finish-command-${ghost.id}`)).toHaveText("./vigil-agent run --interval 10");
      await expect(page.getByTestId(`agent-guide-${ghost.id}`)).toHaveAttribute("href", "/agents/create");

      // The table says the same, the finish command on a row of its own under the agent.
      await page.getByTestId("agents-view-table").click();
      await expect(page.getByTestId(`agent-last-seen-${ghost.id}`)).toHaveText(neverReported);
      await expect(page.getByTestId(`agent-row-finish-${ghost.id}`).getByTestId(`agent-finish-command-${ghost.id}`)).toHaveText("./vigil-agent run --interval 10");

      // Remove from the list: through the delete dialog, then gone here and on the server.
      await page.getByTestId(`agent-remove-${other.id}`).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(tr(m, "agents.confirmDelete.message", { name: "ghost-2" }));
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(toast(page, m.agents.deleted)).toBeVisible();
      await expect(page.getByTestId(`agent-row-${other.id}`)).toHaveCount(0);
      expect((await vigil.api("GET", `/api/agents/${other.id}`, undefined, admin.token)).status).toBe(404);

      // The detail: the same line among the facts, the finish command where the values would be, and remove.
      await page.getByTestId(`agent-link-${ghost.id}`).click();
      await expect(page.getByTestId("agent-fact-last-seen")).toHaveText(neverReported);
      await expect(page.getByTestId("agent-no-data")).toContainText(finish);
      await expect(page.getByTestId(`agent-finish-command-${ghost.id}`)).toHaveText("./vigil-agent run --interval 10");
      await page.getByTestId(`agent-remove-${ghost.id}`).click();
      await expect(page.getByRole("dialog")).toContainText(tr(m, "agents.confirmDelete.message", { name: "ghost-1" }));
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(page).toHaveURL(/\/agents$/);
      expect((await vigil.api("GET", "/api/agents", undefined, admin.token)).body.agents).toEqual([]);
    });

    test("installing again from the same host replaces the never-reported twin; the guide names the credential file", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const first = await registerAgent(vigil, admin, "web-1");
      await withSession(page, admin, "/agents");
      await expect(page.getByTestId(`agent-never-reported-${first.id}`)).toBeVisible();

      // What `vigil-agent register` sends when run again on that machine (same hostname and addresses).
      const token = (await vigil.api("POST", "/api/agents/tokens", {}, admin.token)).body.token;
      const again = await vigil.api("POST", "/api/agents/register", { token, host: host("web-1") });
      expect(again.body.replaced).toEqual([{ id: first.id, name: "web-1" }]);
      await page.reload();
      await expect(page.getByTestId(`agent-card-${again.body.agentId}`)).toBeVisible();
      await expect(page.getByTestId(`agent-card-${first.id}`)).toHaveCount(0);
      await expect(page.locator("[data-testid^=agent-card-]")).toHaveCount(1);

      await page.getByTestId(`agent-guide-${again.body.agentId}`).click();
      await expect(page).toHaveURL(/\/agents\/create$/);
      const step = page.getByTestId("agent-step-register");
      await expect(step).toContainText(m.agents.create.step2Hint);
      await expect(step).toContainText("/etc/vigil-agent/agent.json");
    });
  });
}
