import { SECRET_BODY } from "../server/auth/secrets";
import { expect, test, withSession } from "./fixtures";
import { host, registerAgent, report, sample } from "./helpers";

// Agent screens in both languages: the install guide, the list (cards and table), the detail with its charts, the
// edit form. Agents are registered and report through the real agent API, as the compiled agent would.

/** A build as GET /api/agents/targets lists it. */
type Target = { os: "linux" | "darwin" | "windows"; arch: "x64" | "arm64"; file: string; bytes: number; xz: { file: string; bytes: number } | null };
const KNOWN_TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64", "windows-arm64"];
const idOf = (t: Target) => `${t.os}-${t.arch}`;
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
/** The guide's download with gzip on the wire (Windows' curl.exe is built without zlib: none there). */
const gzipCommand = (url: string, t: Target) =>
  t.os === "windows"
    ? `curl.exe -fsSL -o vigil-agent.exe ${url}/downloads/${t.file}`
    : `curl -fsSL --compressed -o vigil-agent ${url}/downloads/${t.file} && chmod +x vigil-agent`;
/** The guide's step 1 for a build: its xz copy when it has one, else the gzip transfer. */
const downloadCommand = (url: string, t: Target) =>
  t.xz ? `curl -fsSL -o vigil-agent.xz ${url}/downloads/${t.xz.file} && xz -df vigil-agent.xz && chmod +x vigil-agent` : gzipCommand(url, t);

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
    tokenRevoked: "令牌已撤销",
    tokenNotFound: "注册令牌不存在：可能已被使用、已过期或已撤销",
    noTargets: "此服务器上没有客户端程序",
    xzNote: (size: string) => `下载 xz 压缩版（${size}）后解压，传输量最小。`,
    loopback: "其他机器上的客户端无法访问此地址",
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
    tokenRevoked: "Token revoked",
    tokenNotFound: "Registration token not found: it was already used, expired or revoked",
    noTargets: "No agent builds on this server",
    xzNote: (size: string) => `Downloads the xz copy (${size}) and unpacks it: the lightest transfer.`,
    loopback: "Agents on other machines cannot reach this address",
    noData: "No data yet",
    dashboardSection: "Agent monitors",
    dashboardEmpty: "No agents yet.",
  },
]) {
  test.describe(`agents (${lang.locale})`, () => {
    test.use({ locale: lang.locale });

    test("the install guide: address with a loopback warning, only the builds on offer, a token shown once in the commands, then the agent connects", async ({ page, vigil, context }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: vigil.url });
      const admin = await vigil.register("alice");
      await withSession(page, admin, "/agents");
      await page.getByTestId("agent-create-button").click();
      await expect(page).toHaveURL(/\/agents\/create$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang.createTitle);
      await expect(page.getByTestId("agent-server-address")).toHaveText(vigil.url);

      // The test server listens on 127.0.0.1: agents elsewhere could not reach it, and the page says so.
      expect(new URL(vigil.url).hostname).toBe("127.0.0.1");
      const warning = page.getByTestId("agent-loopback-warning");
      await expect(warning).toBeVisible();
      await expect(warning).toContainText(lang.loopback);
      await expect(warning).toContainText("127.0.0.1");
      await expect(warning).toContainText("--public-url");

      // Opening the page mints nothing: no token shown, the commands hold a placeholder.
      await expect(page.getByTestId("agent-tokens-empty")).toBeVisible();
      await expect(page.getByTestId("agent-token")).toHaveCount(0);
      await expect(page.getByTestId("agent-token-none")).toBeVisible();
      await expect(page.getByTestId("agent-token-placeholder-hint")).toContainText("<TOKEN>");
      await expect(page.getByTestId("agent-cmd-register")).toHaveText(`./vigil-agent register --server ${vigil.url} --token '<TOKEN>'`);
      expect((await vigil.api("GET", "/api/agents/tokens", undefined, admin.token)).body.tokens).toEqual([]);

      // Only the builds this server has are offered (dist/agents beside dist/vigil), each with its size.
      const targets: Target[] = (await vigil.api("GET", "/api/agents/targets")).body.targets;
      expect(targets.length).toBeGreaterThan(0);
      const select = page.getByTestId("agent-os-select");
      await expect(select.locator("option")).toHaveCount(targets.length);
      const offered = await select.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      expect([...offered].sort()).toEqual(targets.map(idOf).sort());
      for (const id of KNOWN_TARGETS.filter((id) => !targets.some((x) => idOf(x) === id))) {
        await expect(select.locator(`option[value="${id}"]`)).toHaveCount(0);
      }
      if (targets.some((x) => idOf(x) === "linux-x64")) expect(offered[0]).toBe("linux-x64");
      for (const target of targets) {
        await select.selectOption(idOf(target));
        await expect(select.locator(`option[value="${idOf(target)}"]`)).toContainText(mib(target.bytes));
        await expect(page.getByTestId("agent-cmd-download")).toHaveText(downloadCommand(vigil.url, target));
        await expect(page.getByTestId("agent-download-file")).toHaveText(`${target.file} · ${mib(target.bytes)}`);
        await expect(page.getByTestId("agent-download-link")).toHaveAttribute("href", `${vigil.url}/downloads/${target.file}`);
        await expect(page.getByTestId("agent-step-install")).toHaveCount(target.os === "linux" ? 1 : 0);
        // The build really is there (its checksum, rather than the 100 MB binary), and so is its xz copy.
        expect((await fetch(`${vigil.url}/downloads/${target.file}.sha256`)).status).toBe(200);
        if (target.xz) {
          await expect(page.getByTestId("agent-download-xz")).toHaveText(lang.xzNote(mib(target.xz.bytes)));
          await expect(page.getByTestId("agent-cmd-download-gzip")).toHaveText(gzipCommand(vigil.url, target));
          expect((await fetch(`${vigil.url}/downloads/${target.xz.file}.sha256`)).status).toBe(200);
        } else {
          await expect(page.getByTestId("agent-download-xz")).toHaveCount(0);
          await expect(page.getByTestId("agent-cmd-download-gzip")).toHaveCount(0);
        }
      }
      await select.selectOption(offered[0]);
      const first = targets.find((x) => idOf(x) === offered[0])!;

      // "Create token" mints one and shows it once; the commands use it.
      await page.getByTestId("agent-new-token").click();
      const tokenBox = page.getByTestId("agent-token");
      await expect(tokenBox).toHaveText(new RegExp(`^vgl_reg_${SECRET_BODY}$`));
      const token = (await tokenBox.textContent())!.trim();
      await expect(page.getByTestId("agent-token-none")).toHaveCount(0);
      await expect(page.getByTestId("agent-token-placeholder-hint")).toHaveCount(0);
      await expect(page.getByTestId("agent-cmd-download")).toHaveText(downloadCommand(vigil.url, first));
      await expect(page.getByTestId("agent-cmd-download")).toContainText(first.os === "windows" ? "curl.exe" : first.xz ? "xz -df" : "--compressed");
      await expect(page.getByTestId("agent-cmd-register")).toHaveText(`./vigil-agent register --server ${vigil.url} --token ${token}`);
      await expect(page.getByTestId("agent-cmd-run")).toHaveText("./vigil-agent run --interval 10");
      await expect(page.getByTestId("agent-cmd-install")).toHaveText(`curl -fsSL ${vigil.url}/install.sh | sudo sh -s -- --token ${token} --interval 10`);
      // It is listed among the unused tokens, marked as the one shown.
      await expect(page.getByTestId("agent-token-row")).toHaveCount(1);
      await expect(page.getByTestId("agent-token-row").getByTestId("agent-token-shown")).toBeVisible();
      // Its times name their zone on hover.
      await expect(page.getByTestId("agent-token-expiry")).toHaveAttribute("title", /\(UTC \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\)$/);
      expect((await vigil.api("GET", "/api/agents/tokens", undefined, admin.token)).body.tokens).toHaveLength(1);

      // The interval flows into the commands; a bad interval is flagged.
      await page.getByTestId("agent-interval").fill("30");
      await expect(page.getByTestId("agent-cmd-run")).toHaveText("./vigil-agent run --interval 30");
      await expect(page.getByTestId("agent-cmd-install")).toContainText("--interval 30");
      await page.getByTestId("agent-interval").fill("0");
      await expect(page.getByTestId("agent-interval-error")).toBeVisible();
      await page.getByTestId("agent-interval").fill("15");
      await expect(page.getByTestId("agent-interval-error")).toHaveCount(0);
      await expect(page.getByTestId("agent-cmd-run")).toHaveText("./vigil-agent run --interval 15");

      // Copy puts the token on the clipboard and says so.
      await page.getByTestId("agent-copy-token").click();
      await expect(page.getByText(lang.tokenCopied)).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

      // Shown once: after a reload it is only a row in the list, the commands are back to the placeholder.
      await page.reload();
      await expect(page.getByTestId("agent-token-row")).toHaveCount(1);
      await expect(page.getByTestId("agent-token-shown")).toHaveCount(0);
      await expect(page.getByTestId("agent-token")).toHaveCount(0);
      await expect(page.getByTestId("agent-cmd-register")).toContainText("--token '<TOKEN>'");
      await expect(page.locator("body")).not.toContainText(token);

      // The token registers an agent (what `vigil-agent register` does): the page notices, and the token leaves the list.
      await expect(page.getByTestId("agent-waiting")).toBeVisible();
      const agent = await registerAgent(vigil, admin, "web-1", token);
      const connected = page.getByTestId("agent-connected");
      await expect(connected).toBeVisible({ timeout: 10_000 });
      await expect(connected).toContainText("web-1");
      await expect(page.getByTestId("agent-tokens-empty")).toBeVisible();
      // A used token is spent: a second registration is refused.
      const again = await vigil.api("POST", "/api/agents/register", { token, host: host("web-2") });
      expect(again.status).toBe(401);

      await page.getByTestId("agent-connected-link").click();
      await expect(page).toHaveURL(new RegExp(`/agents/${agent.id}$`));
      await expect(page.getByTestId("agent-name")).toHaveText("web-1");
    });

    test("the install guide lists unused tokens and revokes them", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      const made: { token: string }[] = [];
      for (let i = 0; i < 2; i++) made.push((await vigil.api("POST", "/api/agents/tokens", {}, admin.token)).body);
      const ids = ((await vigil.api("GET", "/api/agents/tokens", undefined, admin.token)).body.tokens as { id: number }[]).map((x) => x.id);
      expect(ids).toHaveLength(2);
      await withSession(page, admin, "/agents/create");

      // Listed (created, expires), their secrets never shown again.
      const rows = page.getByTestId("agent-token-row");
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toHaveAttribute("data-token-id", String(ids[0]));
      await expect(page.getByTestId("agent-token")).toHaveCount(0);
      for (const { token } of made) await expect(page.locator("body")).not.toContainText(token);

      // Revoke the first: a toast, the row goes, the server agrees, and the token no longer registers anything.
      await rows.first().getByTestId("agent-token-revoke").click();
      await expect(page.getByText(lang.tokenRevoked)).toBeVisible();
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toHaveAttribute("data-token-id", String(ids[1]));
      const left = (await vigil.api("GET", "/api/agents/tokens", undefined, admin.token)).body.tokens as { id: number }[];
      expect(left.map((x) => x.id)).toEqual([ids[1]]);
      expect((await vigil.api("POST", "/api/agents/register", { token: made[0].token, host: host("x") })).status).toBe(401);

      // Revoked elsewhere meanwhile: the server's TOKEN_NOT_FOUND, translated, and the list catches up.
      expect((await vigil.api("DELETE", `/api/agents/tokens/${ids[1]}`, undefined, admin.token)).status).toBe(200);
      await rows.first().getByTestId("agent-token-revoke").click();
      await expect(page.getByText(lang.tokenNotFound)).toBeVisible();
      await expect(page.getByTestId("agent-tokens-empty")).toBeVisible();

      // Revoking the token created on this visit takes it out of the commands too.
      await page.getByTestId("agent-new-token").click();
      await expect(page.getByTestId("agent-token")).toHaveText(/^vgl_reg_/);
      await expect(page.getByTestId("agent-token-shown")).toBeVisible();
      await rows.first().getByTestId("agent-token-revoke").click();
      await expect(page.getByTestId("agent-tokens-empty")).toBeVisible();
      await expect(page.getByTestId("agent-token")).toHaveCount(0);
      await expect(page.getByTestId("agent-cmd-register")).toContainText("--token '<TOKEN>'");
      expect((await vigil.api("GET", "/api/agents/tokens", undefined, admin.token)).body.tokens).toEqual([]);
    });

    test("the download step follows the builds on offer: none at all, or a Windows build", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      // What the server would say with an empty agents dir (the test binary's has builds).
      let targets: Target[] = [];
      await page.route("**/api/agents/targets", (route) => route.fulfill({ json: { success: true, targets } }));
      await withSession(page, admin, "/agents/create");
      const none = page.getByTestId("agent-no-targets");
      await expect(none).toContainText(lang.noTargets);
      await expect(none).toContainText("npm run build:agents");
      await expect(page.getByTestId("agent-os-select")).toHaveCount(0);
      await expect(page.getByTestId("agent-cmd-download")).toHaveCount(0);
      await expect(page.getByTestId("agent-step-install")).toHaveCount(0);
      await expect(page.getByTestId("agent-cmd-register")).toContainText(`./vigil-agent register --server ${vigil.url}`);

      targets = [
        { os: "windows", arch: "x64", file: "vigil-agent-windows-x64.exe", bytes: 110 * 1024 * 1024, xz: null },
        { os: "linux", arch: "x64", file: "vigil-agent-linux-x64", bytes: 104 * 1024 * 1024, xz: { file: "vigil-agent-linux-x64.xz", bytes: 35 * 1024 * 1024 } },
      ];
      await page.reload();
      const select = page.getByTestId("agent-os-select");
      await expect(select.locator("option")).toHaveCount(2);
      expect(await select.locator("option").evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(["linux-x64", "windows-x64"]);
      await expect(page.getByTestId("agent-no-targets")).toHaveCount(0);
      // Linux with an xz copy: the lighter download first, the gzip one for a machine without xz.
      await expect(page.getByTestId("agent-cmd-download")).toHaveText(
        `curl -fsSL -o vigil-agent.xz ${vigil.url}/downloads/vigil-agent-linux-x64.xz && xz -df vigil-agent.xz && chmod +x vigil-agent`,
      );
      await expect(page.getByTestId("agent-download-xz")).toHaveText(lang.xzNote("35.0 MiB"));
      await expect(page.getByTestId("agent-cmd-download-gzip")).toHaveText(`curl -fsSL --compressed -o vigil-agent ${vigil.url}/downloads/vigil-agent-linux-x64 && chmod +x vigil-agent`);
      await select.selectOption("windows-x64");
      await expect(page.getByTestId("agent-cmd-download")).toHaveText(`curl.exe -fsSL -o vigil-agent.exe ${vigil.url}/downloads/vigil-agent-windows-x64.exe`);
      await expect(page.getByTestId("agent-download-file")).toHaveText("vigil-agent-windows-x64.exe · 110.0 MiB");
      await expect(page.getByTestId("agent-download-xz")).toHaveCount(0);
      await expect(page.getByTestId("agent-cmd-download-gzip")).toHaveCount(0);
      await expect(page.getByTestId("agent-cmd-register")).toHaveText(`.\\vigil-agent.exe register --server ${vigil.url} --token '<TOKEN>'`);
      await expect(page.getByTestId("agent-cmd-run")).toHaveText(".\\vigil-agent.exe run --interval 10");
      await expect(page.getByTestId("agent-step-install")).toHaveCount(0);
    });

    test("the install guide fits a 390 px wide phone", async ({ page, vigil }) => {
      const admin = await vigil.register("alice");
      await vigil.api("POST", "/api/agents/tokens", {}, admin.token);
      await page.setViewportSize({ width: 390, height: 844 });
      await withSession(page, admin, "/agents/create");
      await page.getByTestId("agent-new-token").click();
      await expect(page.getByTestId("agent-token")).toBeVisible();
      await expect(page.getByTestId("agent-token-row")).toHaveCount(2);
      await expect(page.getByTestId("agent-cmd-download")).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      for (const id of ["agent-server-address", "agent-loopback-warning", "agent-os-select", "agent-new-token", "agent-token", "agent-copy-token", "agent-cmd-download", "agent-copy-download", "agent-cmd-register", "agent-cmd-install"]) {
        const box = (await page.getByTestId(id).first().boundingBox())!;
        expect({ id, right: box.x + box.width <= 390, left: box.x >= 0 }).toEqual({ id, right: true, left: true });
      }
      for (const row of await page.getByTestId("agent-token-revoke").all()) {
        const box = (await row.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
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
