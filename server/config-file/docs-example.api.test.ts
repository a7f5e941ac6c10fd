// The example in docs/config-as-code.md is a valid file (both engines): it applies, and applying it again writes nothing.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setup } from "./test-helpers";

test("the documented example applies; again writes nothing; its export names every secret's variable", async () => {
  const s = await setup();
  const md = readFileSync(join(import.meta.dir, "../../docs/config-as-code.md"), "utf8");
  const start = md.indexOf("```yaml\n") + "```yaml\n".length;
  const yaml = md.slice(start, md.indexOf("```", start));
  const env = {
    VIGIL_MONITOR_SHOP_DB_PASSWORD: "db-password",
    VIGIL_CHANNEL_OPS_URL: "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX",
    VIGIL_CHANNEL_ON_CALL_TOKEN: "tk_on-call",
    VIGIL_STATUS_PAGE_INTERNAL_PASSWORD: "internal-password",
  };
  const applied = await s.post("/api/config/apply", { yaml, env });
  expect(applied.status).toBe(200);
  expect(applied.body.plan.counts).toEqual({ create: 10, change: 0, delete: 0, unchanged: 0 });
  expect((await s.post("/api/config/apply", { yaml, env })).body.written).toBe(false);
  const exported = (await s.text("/api/config/export")).text;
  for (const name of Object.keys(env)) expect(exported).toContain(`\${${name}}`);
});
