import type { TypeI18n } from "../settings-type";
import { READ_COMMANDS } from "./command";

const commands = READ_COMMANDS.join(", ");

export const redisI18n: TypeI18n = {
  "en-US": {
    name: "Redis",
    description: "Connects to Redis (or Valkey), sends PING or a read-only command and checks the reply.",
    fields: {
      host: { label: "Host", hint: "Host name or IP address, without scheme or port" },
      port: { label: "Port" },
      username: { label: "User name", hint: "An ACL user; empty for the default user" },
      password: { label: "Password" },
      tls: { label: "TLS", hint: "Connect with TLS (rediss)" },
      ignoreTls: { label: "Ignore TLS errors", hint: "Accept a self-signed or expired certificate" },
      database: { label: "Database", hint: "0 to 15" },
      command: { label: "Command", hint: `A read-only command and its arguments, e.g. GET health. Allowed: ${commands}` },
      expected: { label: "Expected reply", hint: "Empty: any reply (PING must answer PONG)" },
      expectedMatch: { label: "Match" },
    },
    options: { expectedMatch: { equals: "Reply equals", contains: "Reply contains" } },
  },
  "zh-CN": {
    name: "Redis",
    description: "连接 Redis（或 Valkey），发送 PING 或一条只读命令并检查回复。",
    fields: {
      host: { label: "主机", hint: "主机名或 IP 地址，不含协议和端口" },
      port: { label: "端口" },
      username: { label: "用户名", hint: "ACL 用户；留空使用默认用户" },
      password: { label: "密码" },
      tls: { label: "TLS", hint: "使用 TLS 连接（rediss）" },
      ignoreTls: { label: "忽略 TLS 错误", hint: "接受自签名或已过期的证书" },
      database: { label: "数据库", hint: "0 到 15" },
      command: { label: "命令", hint: `一条只读命令及其参数，例如 GET health。允许：${commands}` },
      expected: { label: "预期回复", hint: "留空：任何回复均可（PING 须回复 PONG）" },
      expectedMatch: { label: "匹配方式" },
    },
    options: { expectedMatch: { equals: "回复等于", contains: "回复包含" } },
  },
};
