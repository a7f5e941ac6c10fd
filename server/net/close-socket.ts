// Closing a socket for sure. Bun 1.4.5: destroy() on a TLS socket whose handshake is still pending leaves the TCP
// connection open (the server never hears of it, the descriptor stays); resetAndDestroy() closes it.

export function closeSocket(socket: unknown): void {
  const s = socket as { destroyed?: boolean; secureConnecting?: boolean; destroy(): void; resetAndDestroy?(): void } | null | undefined;
  if (!s || typeof s.destroy !== "function") return;
  if (s.secureConnecting && s.resetAndDestroy) s.resetAndDestroy();
  else if (!s.destroyed) s.destroy();
}
