// The grpc type's words for the UI (merged under monitors.settingsTypes.grpc).
import type { TypeI18n } from "../settings-type";

export const grpcI18n: TypeI18n = {
  "en-US": {
    name: "gRPC",
    description: "Asks the server's standard health service (grpc.health.v1.Health/Check), up when it answers SERVING; or calls one unary method, up when it answers OK.",
    fields: {
      host: { label: "Host", hint: "Host name or IP address, without scheme or port." },
      port: { label: "Port" },
      mode: { label: "Check", hint: "The standard health service, or a unary method of your own described by its .proto." },
      service: { label: "Service", hint: "Health check only: the service name to ask about (my.package.Service). Empty: the server as a whole." },
      proto: { label: ".proto", hint: "Unary call only: the service's .proto text (one file; it may import google/protobuf/*.proto, nothing else)." },
      method: { label: "Method", hint: "Unary call only: package.Service/Method, for example shop.v1.Orders/Get." },
      request: { label: "Request (JSON)", hint: "Unary call only: the request message as JSON, with the .proto's field names. {} sends an empty message." },
      keyword: {
        label: "Keyword",
        hint: 'Unary call only: must appear in the reply as JSON (case-sensitive), e.g. "state":"SHIPPED". Enum names, 64-bit numbers as strings; fields left at their default are not in it. Empty: an OK reply is enough.',
      },
      keywordInvert: { label: "Must not contain", hint: "Down when the keyword is found in the reply." },
      tls: { label: "Use TLS", hint: "Connect over TLS; the certificate is checked against the host name." },
      ignoreTls: { label: "Ignore TLS errors", hint: "Accept self-signed or otherwise invalid certificates." },
      metadata: { label: "Metadata", hint: "Sent with the call, for example authorization: Bearer …. Keys in lower case." },
    },
    options: { mode: { health: "Health check (grpc.health.v1)", unary: "Unary call" } },
  },
  "zh-CN": {
    name: "gRPC",
    description: "调用服务器的标准健康检查服务（grpc.health.v1.Health/Check），返回 SERVING 即为正常；或调用一个一元方法，返回 OK 即为正常。",
    fields: {
      host: { label: "主机", hint: "主机名或 IP 地址，不含协议和端口。" },
      port: { label: "端口" },
      mode: { label: "检查方式", hint: "标准健康检查服务，或按 .proto 描述调用您自己的一元方法。" },
      service: { label: "服务", hint: "仅用于健康检查：要查询的服务名（my.package.Service）。留空：查询整个服务器。" },
      proto: { label: ".proto", hint: "仅用于一元调用：服务的 .proto 文本（单个文件；只能导入 google/protobuf/*.proto）。" },
      method: { label: "方法", hint: "仅用于一元调用：package.Service/Method，例如 shop.v1.Orders/Get。" },
      request: { label: "请求（JSON）", hint: "仅用于一元调用：以 JSON 表示的请求消息，字段名与 .proto 中相同。{} 发送空消息。" },
      keyword: {
        label: "关键字",
        hint: '仅用于一元调用：回复转为 JSON 后必须包含（区分大小写），例如 "state":"SHIPPED"。枚举为名称，64 位整数为字符串；取默认值的字段不会出现。留空：返回 OK 即可。',
      },
      keywordInvert: { label: "必须不包含", hint: "在回复中找到关键字时判定为故障。" },
      tls: { label: "使用 TLS", hint: "通过 TLS 连接，并按主机名校验证书。" },
      ignoreTls: { label: "忽略 TLS 错误", hint: "接受自签名或其他无效证书。" },
      metadata: { label: "元数据", hint: "随调用发送，例如 authorization: Bearer …。键名须为小写。" },
    },
    options: { mode: { health: "健康检查（grpc.health.v1）", unary: "一元调用" } },
  },
};
