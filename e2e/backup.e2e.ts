// An admin downloads a backup from /users: a file named vigil-YYYYMMDD-HHMMSS.db that opens as the instance's
// SQLite database. Both languages.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, test, withSession } from "./fixtures";
import { LANGUAGES, toast, tr } from "./i18n";

/** The accounts in a SQLite file, read with Bun (Playwright runs on a Node without SQLite). */
function accountsIn(file: string): { username: string; role: string }[] {
  const script = `import { Database } from "bun:sqlite";
const db = new Database(process.env.DB, { readonly: true });
console.log(JSON.stringify(db.query("SELECT username, role FROM users ORDER BY id").all()));`;
  return JSON.parse(execFileSync(resolve("node_modules/.bin/bun"), ["-e", script], { env: { ...process.env, DB: file }, encoding: "utf8" }));
}

for (const [locale, m] of LANGUAGES) {
  test.describe(`backup (${locale})`, () => {
    test.use({ locale });

    test("an admin downloads a backup of the database from the users page", async ({ page, vigil }, testInfo) => {
      const admin = await vigil.register("alice");
      await vigil.register("bob");
      await withSession(page, admin, "/users");
      const card = page.getByTestId("backup");
      await expect(card).toContainText(tr(m, "backup.title"));
      await expect(card).toContainText(tr(m, "backup.restoreHint"));
      const button = card.getByTestId("backup-download");
      await expect(button).toHaveText(tr(m, "backup.download"));

      const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
      expect(download.suggestedFilename()).toMatch(/^vigil-\d{8}-\d{6}\.db$/);
      await expect(toast(page, tr(m, "backup.downloaded"))).toBeVisible();
      const file = testInfo.outputPath("backup.db");
      await download.saveAs(file);
      const accounts = accountsIn(file);
      expect(accounts.map((u) => u.username)).toEqual(["alice", "bob"]);
      expect(accounts[0]!.role).toBe("admin");
    });
  });
}
