// The mysql type's settings (MySQL and MariaDB; sql-settings.ts has the fields both SQL types share and why they are
// fields, not a connection string). An empty database: information_schema (mysql.ts says why).
import { Type } from "@sinclair/typebox";
import { sqlSettingsFields } from "../sql-settings";

export const mysqlSettings = Type.Object(sqlSettingsFields({ port: 3306 }));
