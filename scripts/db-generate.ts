// npm run db:generate [-- --name <name>]: after editing a table, writes the next migration for both engines —
// SQLite (server/db/migrations) and PostgreSQL (server/db/migrations-pg, from the tables derived in
// server/db/pg-schema.ts). drizzle-kit qualifies PostgreSQL references with "public"; Vigil may live in another
// schema (`?schema=` in the database URL), so those qualifiers are removed.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const extra = process.argv.slice(2);
for (const config of ["drizzle.config.ts", "drizzle.pg.config.ts"]) {
  const run = Bun.spawnSync(["bun", "x", "drizzle-kit", "generate", "--config", config, ...extra], { stdout: "inherit", stderr: "inherit" });
  if (run.exitCode !== 0) process.exit(run.exitCode ?? 1);
}
const dir = join(import.meta.dir, "../server/db/migrations-pg");
for (const file of readdirSync(dir).filter((f) => f.endsWith(".sql"))) {
  const text = readFileSync(join(dir, file), "utf8");
  if (text.includes('"public".')) writeFileSync(join(dir, file), text.replaceAll('"public".', ""));
}
