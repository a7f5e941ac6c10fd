// The grpc type's words for the UI (merged under monitors.settingsTypes.grpc).
import type { TypeI18n } from "../settings-type";

export const grpcI18n: TypeI18n = {
  "en-US": {
    name: "gRPC",
    description: "Asks the server's standard health service (grpc.health.v1.Health/Check); up when it answers SERVING.",
    fields: {
      host: { label: "Host", hint: "Host name or IP address, without scheme or port." },
      port: { label: "Port" },
      service: { label: "Service", hint: "The service name to ask about (my.package.Service). Empty: the server as a whole." },
      tls: { label: "Use TLS", hint: "Connect over TLS; the certificate is checked against the host name." },
      ignoreTls: { label: "Ignore TLS errors", hint: "Accept self-signed or otherwise invalid certificates." },
      metadata: { label: "Metadata", hint: "Sent with the call, for example authorization: Bearer …. Keys in lower case." },
    },
  },
  "zh-CN": {
    name: "gRPC",
    description: "调用服务器的标准健康检查服务（grpc.health.v1.Health/Check），返回 SERVING 即为正常。",
    fields: {
      host: { label: "主机", hint: "主机名或 IP 地址，不含协议和端口。" },
      port: { label: "端口" },
      service: { label: "服务", hint: "要查询的服务名（my.package.Service）。留空：查询整个服务器。" },
      tls: { label: "使用 TLS", hint: "通过 TLS 连接，并按主机名校验证书。" },
      ignoreTls: { label: "忽略 TLS 错误", hint: "接受自签名或其他无效证书。" },
      metadata: { label: "元数据", hint: "随调用发送，例如 authorization: Bearer …。键名须为小写。" },
    },
  },
};
