import type { TypeI18n } from "../settings-type";
import { READ_COMMANDS } from "./command";

const commands = READ_COMMANDS.join(", ");

export const mongodbI18n: TypeI18n = {
  "en-US": {
    name: "MongoDB",
    description: "Connects with a connection string, runs ping or a read-only command and checks the reply.",
    fields: {
      connectionString: { label: "Connection string", hint: "mongodb://user:password@host:27017/?tls=true or mongodb+srv://…; only the password is hidden" },
      database: { label: "Database", hint: "The database the command runs in" },
      command: { label: "Command", hint: `A JSON object naming a read-only command first, e.g. {"ping":1}. Allowed: ${commands}` },
      expected: { label: "Keyword", hint: "Empty: a reply with ok: 1 is enough; else the reply (as JSON) must contain it" },
    },
  },
  "zh-CN": {
    name: "MongoDB",
    description: "使用连接字符串连接，执行 ping 或一条只读命令并检查回复。",
    fields: {
      connectionString: { label: "连接字符串", hint: "mongodb://用户:密码@主机:27017/?tls=true 或 mongodb+srv://…；仅隐藏密码" },
      database: { label: "数据库", hint: "执行命令的数据库" },
      command: { label: "命令", hint: `一个以只读命令名开头的 JSON 对象，例如 {"ping":1}。允许：${commands}` },
      expected: { label: "关键字", hint: "留空：回复 ok: 1 即可；否则回复（JSON 形式）须包含该关键字" },
    },
  },
};
