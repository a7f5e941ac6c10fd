// The mysql type's words in the UI (the fields' words are shared with the other SQL type: sql-i18n.ts).
import type { TypeI18n } from "../settings-type";
import { sqlLabelsEn, sqlLabelsZh } from "../sql-i18n";

export const mysqlI18n: TypeI18n = {
  "en-US": sqlLabelsEn({
    name: "MySQL / MariaDB",
    description: "Connects to a MySQL or MariaDB server, runs a query and checks a value of its first row.",
    databaseHint: "Empty: information_schema, which every account may use",
  }),
  "zh-CN": sqlLabelsZh({
    name: "MySQL / MariaDB",
    description: "连接 MySQL 或 MariaDB 服务器，执行查询并检查第一行中的值。",
    databaseHint: "留空：使用 information_schema（所有账号都可访问）",
  }),
};
