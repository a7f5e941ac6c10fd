import type { TypeI18n } from "../settings-type";

export const dockerI18n: TypeI18n = {
  "en-US": {
    name: "Docker container",
    description: "Asks the Docker or Podman engine whether a container is running and, if it has a healthcheck, not unhealthy.",
    fields: {
      container: { label: "Container", hint: "Its name or ID, as docker ps shows it" },
      endpoint: { label: "Engine", hint: "The engine on this server (its socket), or a remote one over TCP" },
      socketPath: {
        label: "Socket path",
        hint: "Docker: /var/run/docker.sock; Podman: /run/podman/podman.sock. Vigil's user must be allowed to read it (docker group).",
      },
      host: { label: "Host", hint: "The engine's host (dockerd -H tcp://0.0.0.0:2376)" },
      port: { label: "Port", hint: "2376 with TLS, 2375 without" },
      tls: { label: "TLS", hint: "Recommended: without TLS anyone who reaches the port controls the engine" },
      ca: { label: "CA certificate", hint: "PEM; empty trusts the system's certificate authorities" },
      cert: { label: "Client certificate", hint: "PEM, for an engine started with --tlsverify" },
      key: { label: "Client key", hint: "PEM; kept secret" },
    },
    options: { endpoint: { socket: "Unix socket (this server)", tcp: "TCP" } },
  },
  "zh-CN": {
    name: "Docker 容器",
    description: "询问 Docker 或 Podman 引擎某个容器是否在运行；若容器配置了健康检查，还要求其不处于不健康状态。",
    fields: {
      container: { label: "容器", hint: "容器名称或 ID，与 docker ps 显示的一致" },
      endpoint: { label: "引擎", hint: "本服务器上的引擎（通过其套接字），或通过 TCP 连接的远程引擎" },
      socketPath: {
        label: "套接字路径",
        hint: "Docker：/var/run/docker.sock；Podman：/run/podman/podman.sock。Vigil 的运行用户须有读取权限（docker 组）。",
      },
      host: { label: "主机", hint: "引擎所在主机（dockerd -H tcp://0.0.0.0:2376）" },
      port: { label: "端口", hint: "使用 TLS 时为 2376，不使用时为 2375" },
      tls: { label: "TLS", hint: "建议开启：不使用 TLS 时，任何能访问该端口的人都能控制引擎" },
      ca: { label: "CA 证书", hint: "PEM 格式；留空则信任系统的证书颁发机构" },
      cert: { label: "客户端证书", hint: "PEM 格式，用于以 --tlsverify 启动的引擎" },
      key: { label: "客户端私钥", hint: "PEM 格式；保密存储" },
    },
    options: { endpoint: { socket: "Unix 套接字（本服务器）", tcp: "TCP" } },
  },
};
