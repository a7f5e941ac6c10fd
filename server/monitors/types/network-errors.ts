// Network failures (fetch, TCP connects) as check-errors.ts sentences.
import { CHECK_ERROR_TEXT, timeoutError } from "../check-errors";

/** A short, human error for a failed fetch (one of check-errors.ts's sentences). */
export function describeError(error: unknown, timeoutSeconds: number): string {
  const e = error as { name?: string; code?: string; message?: string } | undefined;
  const name = e?.name ?? "";
  const code = String(e?.code ?? "");
  const message = String(e?.message ?? error ?? "");
  if (name === "TimeoutError") return timeoutError(timeoutSeconds);
  if (name === "AbortError") return CHECK_ERROR_TEXT.CANCELLED;
  switch (code) {
    case "ECONNREFUSED":
    case "ConnectionRefused":
      return CHECK_ERROR_TEXT.REFUSED;
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "DNSError":
      return CHECK_ERROR_TEXT.DNS;
    case "ECONNRESET":
    case "ConnectionClosed":
      return CHECK_ERROR_TEXT.RESET;
    case "ETIMEDOUT":
    case "ConnectionTimeout":
      return CHECK_ERROR_TEXT.CONNECT_TIMEOUT;
    case "EHOSTUNREACH":
      return CHECK_ERROR_TEXT.HOST_UNREACHABLE;
    case "ENETUNREACH":
      return CHECK_ERROR_TEXT.NETWORK_UNREACHABLE;
    case "TooManyRedirects":
      return CHECK_ERROR_TEXT.TOO_MANY_REDIRECTS;
    case "CERT_HAS_EXPIRED":
      return CHECK_ERROR_TEXT.TLS_EXPIRED;
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
      return CHECK_ERROR_TEXT.TLS_SELF_SIGNED;
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return CHECK_ERROR_TEXT.TLS_HOSTNAME;
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return CHECK_ERROR_TEXT.TLS_UNTRUSTED;
    case "EPROTO":
      return CHECK_ERROR_TEXT.TLS_HANDSHAKE;
  }
  if (/CERT|TLS|SSL/i.test(code)) return `TLS error: ${message.slice(0, 160)}`;
  if (/redirect/i.test(message)) return CHECK_ERROR_TEXT.TOO_MANY_REDIRECTS;
  return (message || "request failed").replace(/\s+/g, " ").slice(0, 200);
}
