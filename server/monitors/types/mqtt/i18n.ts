// The mqtt type's words for the UI (merged under monitors.settingsTypes.mqtt).
import type { TypeI18n } from "../settings-type";

export const mqttI18n: TypeI18n = {
  "en-US": {
    name: "MQTT",
    description: "Connects to an MQTT broker, subscribes to a topic and waits for one message (a retained one counts).",
    fields: {
      protocol: { label: "Protocol", hint: "Usual ports: mqtt 1883, mqtts 8883, ws 80 or 8083, wss 443 or 8084." },
      host: { label: "Broker host", hint: "Host name or IP address, without scheme or port." },
      port: { label: "Port" },
      path: { label: "WebSocket path", hint: "Only for ws and wss: the broker's WebSocket endpoint, often /mqtt." },
      username: { label: "User name", hint: "Empty: connect without logging in." },
      password: { label: "Password" },
      topic: { label: "Topic", hint: "The topic to wait on; + and # wildcards allowed (sensors/+/status)." },
      keyword: { label: "Keyword", hint: "Must appear in the message (case-sensitive). Empty: any message will do." },
      jsonPath: { label: "JSON assertion", hint: "Checked against the message as JSON, as for HTTP monitors: $.status == \"ok\"." },
      ignoreTls: { label: "Ignore TLS errors", hint: "Accept self-signed or otherwise invalid certificates (mqtts, wss)." },
    },
    options: { protocol: { mqtt: "mqtt://", mqtts: "mqtts:// (TLS)", ws: "ws:// (WebSocket)", wss: "wss:// (WebSocket over TLS)" } },
  },
  "zh-CN": {
    name: "MQTT",
    description: "连接 MQTT 代理，订阅一个主题并等待一条消息（保留消息也算）。",
    fields: {
      protocol: { label: "协议", hint: "常用端口：mqtt 1883，mqtts 8883，ws 80 或 8083，wss 443 或 8084。" },
      host: { label: "代理主机", hint: "主机名或 IP 地址，不含协议和端口。" },
      port: { label: "端口" },
      path: { label: "WebSocket 路径", hint: "仅用于 ws 和 wss：代理的 WebSocket 端点，通常为 /mqtt。" },
      username: { label: "用户名", hint: "留空：不登录直接连接。" },
      password: { label: "密码" },
      topic: { label: "主题", hint: "要等待消息的主题；可使用通配符 + 和 #（sensors/+/status）。" },
      keyword: { label: "关键字", hint: "消息中必须包含（区分大小写）。留空：收到任意消息即可。" },
      jsonPath: { label: "JSON 断言", hint: "将消息按 JSON 检查，写法与 HTTP 监控相同：$.status == \"ok\"。" },
      ignoreTls: { label: "忽略 TLS 错误", hint: "接受自签名或其他无效证书（mqtts、wss）。" },
    },
    options: { protocol: { mqtt: "mqtt://", mqtts: "mqtts://（TLS）", ws: "ws://（WebSocket）", wss: "wss://（基于 TLS 的 WebSocket）" } },
  },
};
