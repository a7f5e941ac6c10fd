// The ntp type's words for the UI, in both languages.
import type { TypeI18n } from "../settings-type";

export const ntpI18n: TypeI18n = {
  "en-US": {
    name: "NTP",
    description: "Asks a time server for the time (SNTP): down when it does not answer, is not synchronised, or its stratum or its clock's offset from this server's is too high.",
    fields: {
      host: { label: "Host", hint: "The time server's host name or IP address, without scheme or port." },
      port: { label: "Port", hint: "UDP port; NTP uses 123." },
      maxStratum: { label: "Highest stratum", hint: "1 is a server with its own reference clock, each relay adds 1. Public servers are 1–3; a server that lost its sources reports a higher one." },
      maxOffsetMs: { label: "Largest clock offset (ms)", hint: "Down when the server's clock and this server's differ by more than this, either way." },
    },
  },
  "zh-CN": {
    name: "NTP",
    description: "向时间服务器查询时间（SNTP）：无应答、未同步、层级过高或与本服务器的时钟偏差过大时判定为故障。",
    fields: {
      host: { label: "主机", hint: "时间服务器的主机名或 IP 地址，不含协议和端口。" },
      port: { label: "端口", hint: "UDP 端口；NTP 使用 123。" },
      maxStratum: { label: "最高层级", hint: "1 表示服务器自带参考时钟，每经一级转发加 1。公共服务器为 1–3；失去时间源的服务器会报告更高的层级。" },
      maxOffsetMs: { label: "最大时钟偏差（毫秒）", hint: "服务器时钟与本服务器时钟相差超过此值（无论快慢）即判定为故障。" },
    },
  },
};
