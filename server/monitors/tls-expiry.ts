// A monitor's certificate expiry, kept in its state (lists, notifications, the TLS alarm): an https monitor's from the
// TLS probe (cached per URL, read beside the check), a later type's (mail…) from its own check's handshake.
import type { TlsProbe } from "./tls-probe";
import type { MonitorEntry } from "./store";
import type { CheckOutcome } from "./types/check-type";

interface Deps {
  tls?: TlsProbe;
  writer: { saveState(id: number, state: MonitorEntry["state"]): void };
  /** Whether the entry is still the monitor's (not deleted or replaced meanwhile). */
  current: (entry: MonitorEntry) => boolean;
}

export function noteTlsExpiry(entry: MonitorEntry, outcome: CheckOutcome, { tls, writer, current }: Deps): void {
  const keep = (expiresAt: number | null | undefined) => {
    if (expiresAt == null || entry.state.tlsExpiresAt === expiresAt) return;
    entry.state.tlsExpiresAt = expiresAt;
    writer.saveState(entry.id, entry.state);
  };
  if (outcome.tlsExpiresAt != null) return keep(outcome.tlsExpiresAt);
  // Not for a refused target: the policy forbids any connection to it, the certificate lookup's included.
  if (tls && entry.fields.type === "http" && /^https:/i.test(entry.fields.url) && !outcome.error?.startsWith("Target refused:")) {
    keep(tls.get(entry.fields.url, (expiresAt) => current(entry) && keep(expiresAt)));
  }
}
