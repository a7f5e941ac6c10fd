// The smtp, imap and pop3 types' words for the UI, in both languages: the same fields, each type its own name and line.
import type { TypeI18n, TypeLabels } from "../settings-type";

const en = (port: string, security: TypeLabels["options"]): Omit<TypeLabels, "name" | "description"> => ({
  fields: {
    host: { label: "Host", hint: "The mail server's host name or IP address, without scheme or port." },
    port: { label: "Port", hint: port },
    security: { label: "Security", hint: "How the connection is encrypted. With STARTTLS the check is down when the server does not offer it." },
    ignoreTls: { label: "Ignore TLS errors", hint: "Accept an invalid, self-signed or expired certificate. Only for a server you trust." },
    username: { label: "User name", hint: "Optional: log in with it to check that logging in works." },
    password: { label: "Password", hint: "Stored encrypted and never shown again." },
    keyword: { label: "Banner keyword", hint: "Optional: text the server's greeting must contain (any case)." },
    tlsExpiryDays: { label: "TLS expiry warning (days)", hint: "Down when the certificate expires within this many days (1 to 365). Empty: not checked." },
  },
  options: security,
});

const zh = (port: string, security: TypeLabels["options"]): Omit<TypeLabels, "name" | "description"> => ({
  fields: {
    host: { label: "主机", hint: "邮件服务器的主机名或 IP 地址，不含协议和端口。" },
    port: { label: "端口", hint: port },
    security: { label: "加密方式", hint: "连接的加密方式。选择 STARTTLS 时，服务器不支持即判定为故障。" },
    ignoreTls: { label: "忽略 TLS 错误", hint: "接受无效、自签名或已过期的证书。仅用于你信任的服务器。" },
    username: { label: "用户名", hint: "可选：用它登录，检查登录是否正常。" },
    password: { label: "密码", hint: "加密保存，之后不再显示。" },
    keyword: { label: "欢迎信息关键字", hint: "可选：服务器欢迎信息必须包含的文本（不区分大小写）。" },
    tlsExpiryDays: { label: "证书到期告警（天）", hint: "TLS 证书在此天数内到期即判定为故障（1 到 365）。留空则不检查。" },
  },
  options: security,
});

export const smtpI18n: TypeI18n = {
  "en-US": {
    name: "SMTP",
    description: "Connects to a mail server (SMTP), reads its greeting, optionally logs in, and checks its certificate.",
    ...en("Empty: 587 with STARTTLS, 465 with TLS, 25 without encryption.", {
      security: { starttls: "STARTTLS (usually port 587)", tls: "TLS (usually port 465)", none: "None (port 25)" },
    }),
  },
  "zh-CN": {
    name: "SMTP",
    description: "连接邮件服务器（SMTP），读取欢迎信息，可选登录，并检查其证书。",
    ...zh("留空：STARTTLS 用 587，TLS 用 465，不加密用 25。", {
      security: { starttls: "STARTTLS（通常为 587 端口）", tls: "TLS（通常为 465 端口）", none: "不加密（25 端口）" },
    }),
  },
};

export const imapI18n: TypeI18n = {
  "en-US": {
    name: "IMAP",
    description: "Connects to a mailbox server (IMAP), reads its greeting, optionally logs in, and checks its certificate.",
    ...en("Empty: 993 with TLS, 143 with STARTTLS or without encryption.", {
      security: { tls: "TLS (usually port 993)", starttls: "STARTTLS (usually port 143)", none: "None (port 143)" },
    }),
  },
  "zh-CN": {
    name: "IMAP",
    description: "连接邮箱服务器（IMAP），读取欢迎信息，可选登录，并检查其证书。",
    ...zh("留空：TLS 用 993，STARTTLS 或不加密用 143。", {
      security: { tls: "TLS（通常为 993 端口）", starttls: "STARTTLS（通常为 143 端口）", none: "不加密（143 端口）" },
    }),
  },
};

export const pop3I18n: TypeI18n = {
  "en-US": {
    name: "POP3",
    description: "Connects to a mailbox server (POP3), reads its greeting, optionally logs in, and checks its certificate.",
    ...en("Empty: 995 with TLS, 110 with STARTTLS or without encryption.", {
      security: { tls: "TLS (usually port 995)", starttls: "STARTTLS (STLS, usually port 110)", none: "None (port 110)" },
    }),
  },
  "zh-CN": {
    name: "POP3",
    description: "连接邮箱服务器（POP3），读取欢迎信息，可选登录，并检查其证书。",
    ...zh("留空：TLS 用 995，STARTTLS 或不加密用 110。", {
      security: { tls: "TLS（通常为 995 端口）", starttls: "STARTTLS（STLS，通常为 110 端口）", none: "不加密（110 端口）" },
    }),
  },
};
