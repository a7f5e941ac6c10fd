import { defineConfig } from "drizzle-kit";

// PostgreSQL migrations, from the tables derived from the one schema (server/db/pg-schema.ts).
// `npm run db:generate` writes both engines' migrations.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/pg-kit-schema.ts",
  out: "./server/db/migrations-pg",
});
