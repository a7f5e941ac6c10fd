import { defineConfig } from "@playwright/test";
import { dirname, join } from "node:path";

// A run against another executable (VIGIL_BINARY=dist/<name>/vigil) keeps its artifacts and report beside it, so runs
// side by side do not clear each other's test-results/.
const outputDir = process.env.VIGIL_BINARY ? join(dirname(process.env.VIGIL_BINARY), "test-results") : "test-results";

// Browser tests: Debian's Chromium against the compiled executable (dist/vigil), a fresh instance per test
// (see e2e/fixtures.ts). One worker: CI has two cores and the server needs one.
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.e2e.ts",
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  outputDir,
  reporter: [[process.env.CI ? "line" : "list"], ["json", { outputFile: join(outputDir, "e2e.json") }]],
  use: {
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});
