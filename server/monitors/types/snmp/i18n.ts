// The snmp type's words for the UI, in both languages.
import type { TypeI18n } from "../settings-type";

export const snmpI18n: TypeI18n = {
  "en-US": {
    name: "SNMP",
    description: "Reads one value from a device's SNMP agent (v1, v2c or v3) and, if set, compares it with an expected value.",
    fields: {
      host: { label: "Host", hint: "The device's host name or IP address, without scheme or port." },
      port: { label: "Port", hint: "UDP port; SNMP agents use 161." },
      version: { label: "Version" },
      community: { label: "Community", hint: "v1 and v2c: the read community. A wrong one gets no answer, so the check times out." },
      username: { label: "User name", hint: "v3: the USM user." },
      securityLevel: { label: "Security level", hint: "v3: whether requests are authenticated and encrypted." },
      authProtocol: { label: "Authentication protocol", hint: "v3: the user's authentication (digest) algorithm." },
      authKey: { label: "Authentication password", hint: "v3: at least 8 characters. Stored encrypted and never shown again." },
      privProtocol: { label: "Privacy protocol", hint: "v3: the user's encryption algorithm." },
      privKey: { label: "Privacy password", hint: "v3: at least 8 characters. Stored encrypted and never shown again." },
      oid: { label: "OID", hint: "Numeric, as 1.3.6.1.2.1.1.3.0 (sysUpTime, which every agent has)." },
      operator: { label: "Comparison", hint: "Numbers are compared as numbers, anything else as text." },
      expected: { label: "Expected value", hint: "Empty: up whenever the agent returns a value." },
    },
    options: {
      version: { v1: "v1", v2c: "v2c", v3: "v3" },
      securityLevel: { authPriv: "Authentication and encryption", authNoPriv: "Authentication only", noAuthNoPriv: "Neither" },
      authProtocol: { sha: "SHA-1", sha224: "SHA-224", sha256: "SHA-256", sha384: "SHA-384", sha512: "SHA-512", md5: "MD5" },
      privProtocol: { aes: "AES-128", aes256b: "AES-256 (Blumenthal)", aes256r: "AES-256 (Reeder)", des: "DES" },
      operator: { "==": "equals", "!=": "does not equal", "<": "less than", ">": "greater than", contains: "contains" },
    },
  },
  "zh-CN": {
    name: "SNMP",
    description: "从设备的 SNMP 代理（v1、v2c 或 v3）读取一个值，设置了期望值时与之比较。",
    fields: {
      host: { label: "主机", hint: "设备的主机名或 IP 地址，不含协议和端口。" },
      port: { label: "端口", hint: "UDP 端口；SNMP 代理使用 161。" },
      version: { label: "版本" },
      community: { label: "团体名", hint: "v1 和 v2c：只读团体名。团体名错误时代理不会应答，检查将超时。" },
      username: { label: "用户名", hint: "v3：USM 用户。" },
      securityLevel: { label: "安全级别", hint: "v3：请求是否认证、是否加密。" },
      authProtocol: { label: "认证协议", hint: "v3：该用户的认证（摘要）算法。" },
      authKey: { label: "认证密码", hint: "v3：至少 8 个字符。加密保存，之后不再显示。" },
      privProtocol: { label: "加密协议", hint: "v3：该用户的加密算法。" },
      privKey: { label: "加密密码", hint: "v3：至少 8 个字符。加密保存，之后不再显示。" },
      oid: { label: "OID", hint: "数字形式，如 1.3.6.1.2.1.1.3.0（sysUpTime，所有代理都有）。" },
      operator: { label: "比较方式", hint: "数字按数值比较，其他按文本比较。" },
      expected: { label: "期望值", hint: "留空：只要代理返回值即为正常。" },
    },
    options: {
      version: { v1: "v1", v2c: "v2c", v3: "v3" },
      securityLevel: { authPriv: "认证并加密", authNoPriv: "仅认证", noAuthNoPriv: "不认证不加密" },
      authProtocol: { sha: "SHA-1", sha224: "SHA-224", sha256: "SHA-256", sha384: "SHA-384", sha512: "SHA-512", md5: "MD5" },
      privProtocol: { aes: "AES-128", aes256b: "AES-256（Blumenthal）", aes256r: "AES-256（Reeder）", des: "DES" },
      operator: { "==": "等于", "!=": "不等于", "<": "小于", ">": "大于", contains: "包含" },
    },
  },
};
