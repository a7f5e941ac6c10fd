import { defineConfig } from "@playwright/test";
import { dirname, join } from "node:path";
import { DISABLE_FEATURES } from "./server/monitors/types/browser/chromium-features";

// A run against another executable (VIGIL_BINARY=dist/<name>/vigil) keeps its artifacts and report beside it, so runs
// side by side do not clear each other's test-results/; VIGIL_E2E_OUTPUT names the folder outright (npm test runs the
// suite in two parts, each with its own report).
const outputDir =
  process.env.VIGIL_E2E_OUTPUT ?? (process.env.VIGIL_BINARY ? join(dirname(process.env.VIGIL_BINARY), "test-results") : "test-results");

// Browser tests: Debian's Chromium against the compiled executable (dist/vigil), a fresh instance on its own port per
// test (see e2e/fixtures.ts), so workers never share one. Two workers by default (npm test asks for three, when
// the machine has nothing else to run): a test spends about half its time waiting on the server's timers and the
// page (VIGIL_E2E_WORKERS to change it).
export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.e2e.ts",
  workers: Number(process.env.VIGIL_E2E_WORKERS) || 2,
  retries: 0,
  // npm test runs three workers on CI's two cores beside its other streams (the type-check, the build's test): a long
  // test that takes 20 s alone has passed 30 s there. A limit for hangs, not for speed (benchmarks measure that).
  timeout: process.env.CI ? 60_000 : 30_000,
  // The same there for one awaited reply: a push URL's regeneration (one SQLite write) once took over 5 s.
  expect: { timeout: process.env.CI ? 10_000 : 5_000 },
  outputDir,
  reporter: [[process.env.CI ? "line" : "list"], ["json", { outputFile: join(outputDir, "e2e.json") }]],
  use: {
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    // A trace costs a third of the suite's CPU (screencast and DOM snapshots of every step, then thrown away on
    // success): kept for local runs, where someone can open it; CI keeps the failure's screenshot and error.
    trace: process.env.CI ? "off" : "retain-on-failure",
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
        // No omnibox popup preloaded for every context: about a second of CPU per test (chromium-features.ts).
        DISABLE_FEATURES,
      ],
    },
  },
});
