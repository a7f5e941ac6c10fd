// The postgres type's words in the UI (the fields' words are shared with the other SQL type: sql-i18n.ts).
import type { TypeI18n } from "../settings-type";
import { sqlLabelsEn, sqlLabelsZh } from "../sql-i18n";

export const postgresI18n: TypeI18n = {
  "en-US": sqlLabelsEn({
    name: "PostgreSQL",
    description: "Connects to a PostgreSQL server, runs a query and checks a value of its first row.",
    databaseHint: "Empty: the database named like the user",
  }),
  "zh-CN": sqlLabelsZh({
    name: "PostgreSQL",
    description: "连接 PostgreSQL 服务器，执行查询并检查第一行中的值。",
    databaseHint: "留空：与用户同名的数据库",
  }),
};
