// The postgres type's settings (sql-settings.ts has the fields both SQL types share and why they are fields, not a
// connection string). An empty database is PostgreSQL's own default: the one named like the user.
import { Type } from "@sinclair/typebox";
import { sqlSettingsFields } from "../sql-settings";

export const postgresSettings = Type.Object(sqlSettingsFields({ port: 5432 }));
