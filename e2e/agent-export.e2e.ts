import { readFileSync } from "node:fs";
import { expect, test, withSession } from "./fixtures";
import { host, registerAgent, sample } from "./helpers";
import { LANGUAGES, toast, tr } from "./i18n";

// An agent's samples exported from its page: reported through the agent API, downloaded as NDJSON (parsed back) and
// as CSV (a column per series, empty where a sample lacks one: a disk unmounted, an interface added); a first day
// after the last is refused before anything is asked.

for (const [locale, m] of LANGUAGES) {
  test.describe(`export samples (${locale})`, () => {
    test.use({ locale });

    test("download the reported samples as NDJSON and as CSV; a reversed range is refused", async ({ page, vigil }, testInfo) => {
      const admin = await vigil.register("alice");
      const agent = await registerAgent(vigil, admin, "web-1");
      const now = Date.now();
      const first = sample(now - 20_000, 21);
      const second = { ...sample(now - 10_000, 22), disks: [sample(0).disks[0]!] }; // /data gone
      const third = { ...sample(now, 23), network: [...sample(0).network, { ...sample(0).network[0]!, name: "=cmd", rxRate: 7, txRate: 3 }] };
      const sent = await vigil.api("POST", "/api/agents/report", { host: host("web-1"), interval: 10, samples: [first, second, third] }, agent.credential);
      expect(sent.status).toBe(200);
      await withSession(page, admin, `/agents/${agent.id}`);

      const card = page.getByTestId("agent-export");
      await expect(card).toContainText(tr(m, "agents.detail.export.title"));
      await expect(card).toContainText(tr(m, "agents.detail.export.retention"));
      const button = card.getByTestId("agent-export-download");
      await expect(button).toHaveText(tr(m, "common.export.download"));

      await card.getByTestId("agent-export-format").selectOption("ndjson");
      const [ndjson] = await Promise.all([page.waitForEvent("download"), button.click()]);
      expect(ndjson.suggestedFilename()).toMatch(new RegExp(`^vigil-agent-${agent.id}-samples-\\d{4}-\\d{2}-\\d{2}-\\d{4}-\\d{2}-\\d{2}\\.ndjson$`));
      await expect(toast(page, tr(m, "agents.detail.export.downloaded"))).toBeVisible();
      await ndjson.saveAs(testInfo.outputPath("samples.ndjson"));
      const samples = readFileSync(testInfo.outputPath("samples.ndjson"), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
      expect(samples.map((s) => [s.timeMs, s.time, s.values.cpu])).toEqual([first, second, third].map((s) => [s.time, new Date(s.time).toISOString(), s.cpu.usage]));
      expect(samples[2].values).toEqual({ cpu: 23, memory: 37.5, load1: 0.25, load5: 0.5, load15: 0.75, "disk:/": 40, "disk:/data": 90, "rx:=cmd": 7, "rx:eth0": 1536, "tx:=cmd": 3, "tx:eth0": 512 });

      await card.getByTestId("agent-export-format").selectOption("csv");
      const [csv] = await Promise.all([page.waitForEvent("download"), button.click()]);
      expect(csv.suggestedFilename()).toMatch(/\.csv$/);
      await csv.saveAs(testInfo.outputPath("samples.csv"));
      const lines = readFileSync(testInfo.outputPath("samples.csv"), "utf8").trimEnd().split("\r\n").map((line) => line.split(","));
      expect(lines).toEqual([
        ["time", "time_ms", "cpu", "memory", "load1", "load5", "load15", "disk:/", "disk:/data", "rx:=cmd", "rx:eth0", "tx:=cmd", "tx:eth0"],
        [new Date(first.time).toISOString(), String(first.time), "21", "37.5", "0.25", "0.5", "0.75", "40", "90", "", "1536", "", "512"],
        [new Date(second.time).toISOString(), String(second.time), "22", "37.5", "0.25", "0.5", "0.75", "40", "", "", "1536", "", "512"],
        [new Date(third.time).toISOString(), String(third.time), "23", "37.5", "0.25", "0.5", "0.75", "40", "90", "7", "1536", "3", "512"],
      ]);

      // The first day after the last: said under the field, the button off.
      await card.getByTestId("agent-export-from").fill("2099-01-02");
      await card.getByTestId("agent-export-to").fill("2099-01-01");
      await expect(card.getByTestId("agent-export-range-error")).toHaveText(tr(m, "common.export.badRange"));
      await expect(button).toBeDisabled();
    });
  });
}
