// The websocket type's words for the UI (merged under monitors.settingsTypes.websocket).
import type { TypeI18n } from "../settings-type";

export const websocketI18n: TypeI18n = {
  "en-US": {
    name: "WebSocket",
    description: "Opens a WebSocket (ws:// or wss://), optionally sends a message and waits for the first one back.",
    fields: {
      url: { label: "URL", hint: "ws://host:port/path or wss://…" },
      headers: { label: "Headers", hint: "Sent with the upgrade request (for example Authorization or Origin)." },
      subprotocol: { label: "Subprotocol", hint: "Asked for in Sec-WebSocket-Protocol; the server must accept it. Empty: none." },
      ignoreTls: { label: "Ignore TLS errors", hint: "Accept self-signed or otherwise invalid certificates (wss://)." },
      message: { label: "Message to send", hint: "Sent once the connection is open; the first message back is awaited. Empty: nothing is sent." },
      keyword: { label: "Keyword", hint: "Must appear in the first message received (case-sensitive). Empty: the upgrade alone decides." },
    },
  },
  "zh-CN": {
    name: "WebSocket",
    description: "建立 WebSocket 连接（ws:// 或 wss://），可选发送一条消息并等待第一条回复。",
    fields: {
      url: { label: "URL", hint: "ws://主机:端口/路径 或 wss://…" },
      headers: { label: "请求头", hint: "随升级请求发送（例如 Authorization 或 Origin）。" },
      subprotocol: { label: "子协议", hint: "通过 Sec-WebSocket-Protocol 请求，服务器必须接受。留空：不请求。" },
      ignoreTls: { label: "忽略 TLS 错误", hint: "接受自签名或其他无效证书（wss://）。" },
      message: { label: "发送的消息", hint: "连接建立后发送，并等待第一条回复。留空：不发送。" },
      keyword: { label: "关键字", hint: "收到的第一条消息中必须包含（区分大小写）。留空：只看升级是否成功。" },
    },
  },
};
