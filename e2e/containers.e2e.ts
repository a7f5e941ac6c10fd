import { expect, withSession } from "./fixtures";
import { registerAgent, report, test } from "./helpers";
import { LANGUAGES, tr } from "./i18n";

// An agent's containers on its page, both languages: the engine and counts, each container's state, health, restarts,
// CPU and memory; then the same agent losing access to the socket, and the page saying what to do; and on a phone.

const MiB = 1024 ** 2;
const containers = (over: Record<string, unknown> = {}) => ({
  time: Date.now(),
  access: "ok",
  socket: "/var/run/docker.sock",
  engine: "Docker 27.3.1",
  total: 3,
  list: [
    { id: "0123456789ab", name: "web", image: "nginx:1.27", state: "running", health: "healthy", restarts: 0, cpu: 2.5, memory: 64 * MiB, memoryLimit: 512 * MiB, startedAt: Date.now() - 3_600_000 },
    { id: "123456789abc", name: "db", image: "postgres:16", state: "running", health: "unhealthy", restarts: 4, cpu: 12.25, memory: 300 * MiB, memoryLimit: null, startedAt: Date.now() - 60_000 },
    { id: "23456789abcd", name: "backup", image: "acme/backup:2", state: "exited", health: null, restarts: 0, cpu: null, memory: null, memoryLimit: null, startedAt: null },
  ],
  ...over,
});

for (const [locale, m] of LANGUAGES) {
  test.describe(`agent containers (${locale})`, () => {
    test.use({ locale });

    test("listed with state, health, restarts, CPU and memory; no access explained", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      const agent = await registerAgent(vigil, session, "docker-1");
      await report(vigil, agent, "docker-1", 2, containers());
      await withSession(page, session, `/agents/${agent.id}`);
      const section = page.getByTestId("agent-containers");
      await expect(section).toContainText(tr(m, "agents.containers.title"));
      await expect(page.getByTestId("agent-containers-engine")).toHaveText(`Docker 27.3.1 · ${tr(m, "agents.containers.count_other", { count: 3, running: 2 })}`);
      const web = page.getByTestId("agent-container-web");
      await expect(web).toContainText("nginx:1.27");
      await expect(web).toContainText(tr(m, "agents.containers.states.running"));
      await expect(web).toContainText(tr(m, "agents.containers.health.healthy"));
      await expect(web).toContainText("64.0 MiB");
      const db = page.getByTestId("agent-container-db");
      await expect(db).toHaveAttribute("data-health", "unhealthy");
      await expect(db).toContainText(tr(m, "agents.containers.health.unhealthy"));
      await expect(db.locator("td").nth(4)).toHaveText("4");
      await expect(page.getByTestId("agent-container-backup")).toContainText(tr(m, "agents.containers.states.exited"));

      // The agent's user lost the docker group: the page says what to do.
      await report(vigil, agent, "docker-1", 1, containers({ access: "denied", engine: undefined, total: 0, list: [], message: "permission denied reading /var/run/docker.sock: add the agent's user to the docker group" }));
      await page.reload();
      const access = page.getByTestId("agent-containers-access");
      await expect(access).toHaveAttribute("data-access", "denied");
      await expect(access).toContainText(tr(m, "agents.containers.denied", { socket: "/var/run/docker.sock" }));
      await expect(access).toContainText("usermod -aG docker vigil-agent");
      await expect(page.getByTestId("agent-containers-table")).toHaveCount(0);
    });

    test("on a phone the table scrolls inside its card, the page does not", async ({ page, vigil }) => {
      const session = await vigil.register("alice");
      const agent = await registerAgent(vigil, session, "docker-2");
      await report(vigil, agent, "docker-2", 2, containers());
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, session, `/agents/${agent.id}`);
      await expect(page.getByTestId("agent-container-web")).toBeAttached();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });
  });
}
