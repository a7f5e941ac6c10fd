// The words the postgres and mysql types share in the UI (their fields are the same: sql-settings.ts); each type
// gives its name, what it does and what an empty database means for it.
import type { TypeLabels } from "./settings-type";

interface Words {
  name: string;
  description: string;
  databaseHint: string;
}

export const sqlLabelsEn = (words: Words): TypeLabels => ({
  name: words.name,
  description: words.description,
  fields: {
    host: { label: "Host", hint: "Host name or IP address of the server" },
    port: { label: "Port" },
    database: { label: "Database", hint: words.databaseHint },
    username: { label: "User name" },
    password: { label: "Password" },
    tls: { label: "TLS", hint: "Require encrypts without checking the certificate; verify also checks it against the host name" },
    query: { label: "Query", hint: "Runs on its own connection, closed after each check, stopped at the monitor's timeout" },
    column: { label: "Column", hint: "Empty: the first column of the first row" },
    operator: { label: "Operator", hint: "<, >, <= and >= compare numbers; the others compare text" },
    expected: { label: "Expected value", hint: "Empty: the check only needs the query to succeed" },
  },
  options: {
    tls: { disable: "Off", require: "Require", verify: "Verify the certificate" },
    operator: { "==": "equals", "!=": "does not equal", contains: "contains", "<": "less than", ">": "greater than", "<=": "at most", ">=": "at least" },
  },
});

export const sqlLabelsZh = (words: Words): TypeLabels => ({
  name: words.name,
  description: words.description,
  fields: {
    host: { label: "主机", hint: "服务器的主机名或 IP 地址" },
    port: { label: "端口" },
    database: { label: "数据库", hint: words.databaseHint },
    username: { label: "用户名" },
    password: { label: "密码" },
    tls: { label: "TLS", hint: "“要求”只加密，不校验证书；“校验证书”还会按主机名校验证书" },
    query: { label: "查询", hint: "每次检查使用单独的连接，检查后关闭，到达监控的超时时间即停止" },
    column: { label: "列", hint: "留空：第一行的第一列" },
    operator: { label: "运算符", hint: "<、>、<=、>= 按数字比较，其余按文本比较" },
    expected: { label: "期望值", hint: "留空：只要求查询成功" },
  },
  options: {
    tls: { disable: "关闭", require: "要求", verify: "校验证书" },
    operator: { "==": "等于", "!=": "不等于", contains: "包含", "<": "小于", ">": "大于", "<=": "至多", ">=": "至少" },
  },
});
