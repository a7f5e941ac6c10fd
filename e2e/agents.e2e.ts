import { expect, test, withSession, type Vigil } from "./fixtures";

// Agent screens in both languages: the install guide, the list (cards and table), the detail with its charts, the
// edit form. Agents are registered and report through the real agent API, as the compiled agent would.

const GiB = 1024 ** 3;

function sample(time: number, cpu = 25) {
  return {
    time,
    cpu: { usage: cpu, cores: 4, model: "Test CPU @ 2.0GHz" },
    memory: { total: 8 * GiB, used: 3 * GiB, free: 5 * GiB, usageRate: 37.5 },
    disks: [
      { device: "/dev/vda1", mountPoint: "/", fsType: "ext4", total: 50 * GiB, used: 20 * GiB, free: 30 * GiB, usageRate: 40 },
      { device: "/dev/vdb1", mountPoint: "/data", fsType: "xfs", total: 200 * GiB, used: 180 * GiB, free: 20 * GiB, usageRate: 90 },
    ],
    network: [{ name: "eth0", rxRate: 1536, txRate: 512, received: 10 * GiB, sent: GiB, packetsReceived: 123456, packetsSent: 65432 }],
    load: { one: 0.25, five: 0.5, fifteen: 0.75 },
  };
}

const host = (hostname: string) => ({
  hostname,
  ips: ["10.1.2.3"],
  os: "Debian GNU/Linux 12",
  kernel: "6.1.0-test",
  arch: "x64",
  uptime: 90_061,
  agentVersion: "0.1.0",
});

/** Registers an agent with a fresh token (as `vigil-agent register` does) and returns its id and credential. */
async function registerAgent(vigil: Vigil, session: { token: string }, hostname: string, token?: string) {
  const regToken = token ?? (await vigil.api("POST", "/api/agents/tokens", {}, session.token)).body.token;
  const reg = await vigil.api("POST", "/api/agents/register", { token: regToken, host: host(hostname) });
  expect(reg.status).toBe(201);
  return { id: reg.body.agentId as number, credential: reg.body.credential as string };
}

/** Sends samples taken every 10 s up to now (as `vigil-agent run` does). */
async function report(vigil: Vigil, agent: { credential: string }, hostname: string, count = 6) {
  const now = Date.now();
  const samples = Array.from({ length: count }, (_, i) => sample(now - (count - 1 - i) * 10_000, 20 + i));
  const res = await vigil.api("POST", "/api/agents/report", { host: host(hostname), interval: 10, samples }, agent.credential);
  expect(res.status).toBe(200);
}

for (const lang of [
  {
    locale: "zh-CN",
    createTitle: "添加客户端",
    online: "在线",
    connecting: "连接中",
    emptyTitle: "还没有客户端",
    deleted: "客户端已删除",
    dialog: "确定要删除客户端“db-1”吗？",
    cannotUndo: "此操作无法撤销",
    updated: "客户端已更新",
    nameRequired: "请输入名称",
    notFound: "客户端不存在",
    tokenCopied: "令牌已复制",
    noData: "暂无数据",
    dashboardSection: "客户端监控",
    dashboardEmpty: "还没有客户端。",
  },
  {
    locale: "en-US",
    createTitle: "Add agent",
    online: "Online",
    connecting: "Connecting",
    emptyTitle: "No agents yet",
    deleted: "Agent deleted",
    dialog: 'Are you sure you want to delete the agent "db-1"?',
    cannotUndo: "This action cannot be undone",
    updated: "Agent updated",
    nameRequired: "Name is required",
    notFound: "Agent not found",
    tokenCopied: "Token copied",
    noData: "No data yet",
    dashboardSection: "Agent monitors",
    dashboardEmpty: "No agents yet.",
  },
]) {
  test.describe(`agents (${lang.locale})`, () => {
    test.use({ locale: lang.locale });

    test("the install guide shows the address, a one-time token and the commands, then sees the agent connect", async ({ page, vigil, context }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: vigil.url });
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/agents");
      await page.getByTestId("agent-create-button").click();
      await expect(page).toHaveURL(/\/agents\/create$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang.createTitle);
      await expect(page.getByTestId("agent-server-address")).toHaveText(vigil.url);

      const tokenBox = page.getByTestId("agent-token");
      await expect(tokenBox).toHaveText(/^\S{16,}$/);
      const token = (await tokenBox.textContent())!.trim();
      await expect(page.getByTestId("agent-cmd-download")).toHaveText(
        `curl -fsSL -o vigil-agent ${vigil.url}/downloads/vigil-agent-linux-x64 && chmod +x vigil-agent`,
      );
      await expect(page.getByTestId("agent-cmd-register")).toHaveText(`./vigil-agent register --server ${vigil.url} --token ${token}`);
      await expect(page.getByTestId("agent-cmd-run")).toHaveText("./vigil-agent run --interval 10");
      await expect(page.getByTestId("agent-cmd-install")).toHaveText(`curl -fsSL ${vigil.url}/install.sh | sudo sh -s -- --token ${token} --interval 10`);

      // The interval and the platform flow into the commands; a bad interval is flagged.
      await page.getByTestId("agent-interval").fill("30");
      await expect(page.getByTestId("agent-cmd-run")).toHaveText("./vigil-agent run --interval 30");
      await expect(page.getByTestId("agent-cmd-install")).toContainText("--interval 30");
      await page.getByTestId("agent-interval").fill("0");
      await expect(page.getByTestId("agent-interval-error")).toBeVisible();
      await page.getByTestId("agent-interval").fill("15");
      await expect(page.getByTestId("agent-interval-error")).toHaveCount(0);
      await page.getByTestId("agent-os-select").selectOption("linux-arm64");
      await expect(page.getByTestId("agent-cmd-download")).toContainText("/downloads/vigil-agent-linux-arm64 ");
      await page.getByTestId("agent-os-select").selectOption("windows-x64");
      await expect(page.getByTestId("agent-cmd-download")).toContainText("/downloads/vigil-agent-windows-x64.exe");
      await expect(page.getByTestId("agent-cmd-run")).toHaveText(".\\vigil-agent.exe run --interval 15");

      // Copy puts the token on the clipboard and says so.
      await page.getByTestId("agent-copy-token").click();
      await expect(page.getByText(lang.tokenCopied)).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

      // The token registers an agent (what `vigil-agent register` does): the page notices.
      await expect(page.getByTestId("agent-waiting")).toBeVisible();
      const agent = await registerAgent(vigil, admin, "web-1", token);
      const connected = page.getByTestId("agent-connected");
      await expect(connected).toBeVisible({ timeout: 10_000 });
      await expect(connected).toContainText("web-1");
      // A used token is spent: a second registration is refused.
      const again = await vigil.api("POST", "/api/agents/register", { token, host: host("web-2") });
      expect(again.status).toBe(401);

      await page.getByTestId("agent-connected-link").click();
      await expect(page).toHaveURL(new RegExp(`/agents/${agent.id}$`));
      await expect(page.getByTestId("agent-name")).toHaveText("web-1");

      // A new token replaces the shown one.
      await page.goto("/agents/create");
      await expect(page.getByTestId("agent-token")).not.toHaveText(token);
      const second = (await page.getByTestId("agent-token").textContent())!.trim();
      await page.getByTestId("agent-new-token").click();
      await expect(page.getByTestId("agent-token")).not.toHaveText(second);
    });

    test("the list: empty state, cards and table (remembered), live status, delete through a dialog", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/agents");
      await expect(page.getByTestId("agents-empty")).toContainText(lang.emptyTitle);

      const web = await registerAgent(vigil, admin, "web-1");
      const db = await registerAgent(vigil, admin, "db-1");
      await report(vigil, web, "web-1");
      await page.reload();

      const webCard = page.getByTestId(`agent-card-${web.id}`);
      await expect(webCard).toContainText("web-1");
      await expect(webCard).toContainText("10.1.2.3");
      await expect(webCard).toContainText("Debian GNU/Linux 12");
      await expect(webCard).toContainText("25.0%"); // the newest CPU sample
      await expect(webCard).toContainText("90.0%"); // the fullest disk
      await expect(webCard).toContainText("1.5 KiB/s");
      await expect(webCard).toContainText("0.25 / 0.50 / 0.75");
      await expect(page.getByTestId(`agent-status-${web.id}`)).toHaveText(lang.online);
      await expect(page.getByTestId(`agent-status-${db.id}`)).toHaveText(lang.connecting);

      // The list refreshes by itself: db-1 reports and turns online without a reload.
      await report(vigil, db, "db-1");
      await expect(page.getByTestId(`agent-status-${db.id}`)).toHaveText(lang.online, { timeout: 15_000 });

      await page.getByTestId("agents-view-table").click();
      await expect(page.getByTestId("agents-view-table")).toHaveAttribute("aria-pressed", "true");
      const webRow = page.getByTestId(`agent-row-${web.id}`);
      await expect(webRow).toContainText("web-1");
      await expect(webRow).toContainText("37.5%");
      await page.reload();
      await expect(page.getByTestId(`agent-row-${db.id}`)).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem("vigil.agents.view"))).toBe("table");

      await page.getByTestId(`agent-delete-${db.id}`).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(lang.dialog);
      await expect(dialog).toContainText(lang.cannotUndo);
      await page.getByTestId("confirm-dialog-cancel").click();
      await expect(dialog).toHaveCount(0);
      await page.getByTestId(`agent-delete-${db.id}`).click();
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(page.getByTestId(`agent-row-${db.id}`)).toHaveCount(0);
      await expect(page.getByText(lang.deleted)).toBeVisible();
      const list = await vigil.api("GET", "/api/agents", undefined, admin.token);
      expect(list.body.agents.map((a: { name: string }) => a.name)).toEqual(["web-1"]);
      // Its credential is revoked with it.
      const late = await vigil.api("POST", "/api/agents/report", { host: host("db-1"), interval: 10, samples: [sample(Date.now())] }, db.credential);
      expect(late.status).toBe(401);

      await page.getByTestId(`agent-edit-${web.id}`).click();
      await expect(page).toHaveURL(new RegExp(`/agents/edit/${web.id}$`));
    });

    test("the detail: facts, current values, disks, interfaces and charts over every range", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const web = await registerAgent(vigil, admin, "web-1");
      await report(vigil, web, "web-1", 12);
      await withSession(page, admin, `/agents/${web.id}`);

      await expect(page.getByTestId("agent-name")).toHaveText("web-1");
      await expect(page.getByTestId(`agent-status-${web.id}`)).toHaveText(lang.online);
      await expect(page.getByTestId("agent-fact-hostname")).toHaveText("web-1");
      await expect(page.getByTestId("agent-fact-ips")).toHaveText("10.1.2.3");
      await expect(page.getByTestId("agent-fact-version")).toHaveText("0.1.0");
      await expect(page.getByTestId("agent-facts")).toContainText("Test CPU @ 2.0GHz");
      await expect(page.getByTestId("agent-current-cpu")).toContainText("31.0%");
      await expect(page.getByTestId("agent-current-memory")).toContainText("3.0 GiB");
      const data = page.getByTestId("agent-disk-data");
      await expect(data).toContainText("/dev/vdb1");
      await expect(data).toContainText("xfs");
      await expect(data).toContainText("180.0 GiB");
      await expect(data).toContainText("90.0%");
      await expect(page.getByTestId("agent-iface-eth0")).toContainText("1.5 KiB/s");
      await expect(page.getByTestId("agent-iface-eth0")).toContainText("10.0 GiB");

      for (const id of ["chart-cpu", "chart-memory", "chart-network", "chart-load", "chart-disk-root", "chart-disk-data"]) {
        await expect(page.getByTestId(id).locator("canvas")).toHaveCount(1);
      }
      await expect(page.getByTestId("agent-range-1h")).toHaveAttribute("aria-selected", "true");
      for (const range of ["24h", "7d", "30d", "1h"]) {
        await page.getByTestId(`agent-range-${range}`).click();
        await expect(page.getByTestId(`agent-range-${range}`)).toHaveAttribute("aria-selected", "true");
        // Rollups may not hold the newest minute yet: a chart or its "no data" note, never an error.
        await expect(page.getByTestId("chart-cpu").locator("canvas, [data-testid=chart-empty]")).toHaveCount(1);
        await expect(page.getByTestId("agent-series-error")).toHaveCount(0);
      }
    });

    test("a new agent without reports shows 'no data' charts; an unknown id says not found", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const fresh = await registerAgent(vigil, admin, "fresh-1");
      await withSession(page, admin, `/agents/${fresh.id}`);
      await expect(page.getByTestId(`agent-status-${fresh.id}`)).toHaveText(lang.connecting);
      await expect(page.getByTestId("agent-no-data")).toBeVisible();
      await expect(page.getByTestId("chart-cpu")).toContainText(lang.noData);
      await page.goto("/agents/9999");
      await expect(page.getByTestId("agent-load-error")).toHaveText(lang.notFound);
    });

    test("delete from the detail page: the dialog names it, a confirm returns to the list", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const db = await registerAgent(vigil, admin, "db-1");
      await withSession(page, admin, `/agents/${db.id}`);
      await page.getByTestId(`agent-delete-${db.id}`).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText(lang.dialog);
      await expect(dialog).toContainText(lang.cannotUndo);
      await page.getByTestId("confirm-dialog-cancel").click();
      await expect(dialog).toHaveCount(0);
      await page.getByTestId(`agent-delete-${db.id}`).click();
      await page.getByTestId("confirm-dialog-confirm").click();
      await expect(page.getByText(lang.deleted)).toBeVisible();
      await expect(page).toHaveURL(/\/agents$/);
      expect((await vigil.api("GET", `/api/agents/${db.id}`, undefined, admin.token)).status).toBe(404);
    });

    test("the dashboard counts agents by status and follows their reports", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/dashboard");
      const section = page.getByTestId("dashboard-agents");
      await expect(section).toContainText(lang.dashboardSection);
      await expect(page.getByTestId("dashboard-agents-total")).toHaveText("0");
      await expect(page.getByTestId("dashboard-agents-empty")).toContainText(lang.dashboardEmpty);

      const web = await registerAgent(vigil, admin, "web-1");
      const db = await registerAgent(vigil, admin, "db-1");
      await report(vigil, web, "web-1");
      await page.reload();
      await expect(page.getByTestId("dashboard-agents-total")).toHaveText("2");
      await expect(page.getByTestId("dashboard-agents-online")).toHaveText("1");
      await expect(page.getByTestId("dashboard-agents-connecting")).toHaveText("1");
      await expect(page.getByTestId("dashboard-agents-offline")).toHaveText("0");
      await expect(page.getByTestId("dashboard-agents-empty")).toHaveCount(0);

      // Pushed over /api/live: db-1 reports and the counts move without a reload.
      await report(vigil, db, "db-1");
      await expect(page.getByTestId("dashboard-agents-online")).toHaveText("2", { timeout: 15_000 });
      await expect(page.getByTestId("dashboard-agents-connecting")).toHaveText("0");

      await page.getByTestId("dashboard-agents-link").click();
      await expect(page).toHaveURL(/\/agents$/);
    });

    test("edit renames the agent, checks the name, and returns to the detail", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const web = await registerAgent(vigil, admin, "web-1");
      await withSession(page, admin, `/agents/edit/${web.id}`);
      const form = page.getByTestId("agent-edit-form");
      const name = form.locator("input[name=name]");
      await expect(name).toHaveValue("web-1");
      await name.fill("   ");
      await page.getByTestId("agent-edit-submit").click();
      await expect(form.getByTestId("form-error")).toHaveText(lang.nameRequired);
      await name.fill("Primary web server");
      await page.getByTestId("agent-edit-submit").click();
      await expect(page.getByText(lang.updated)).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/agents/${web.id}$`));
      await expect(page.getByTestId("agent-name")).toHaveText("Primary web server");
      const after = await vigil.api("GET", `/api/agents/${web.id}`, undefined, admin.token);
      expect(after.body.agent.name).toBe("Primary web server");
    });
  });
}
