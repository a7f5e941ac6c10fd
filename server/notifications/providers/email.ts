// What the e-mail channels share (Resend, SendGrid, Brevo, SMTP): sender and recipient checks, and the small HTML body.
import { describe, fail, requiredText } from "./fields";
import { headerSafe } from "./ntfy";

const ADDRESS = /^[^\s@<>(),;:"\[\]\\]+@[^\s@<>(),;:"\[\]\\]+\.[^\s@<>(),;:"\[\]\\]+$/;
/** "ops@example.com" or "Display Name <ops@example.com>". */
const SENDER = /^(?:([^<>]*?)\s*<([^<>\s]+)>|([^<>\s]+))$/;
export const MAX_RECIPIENTS = 50;
export const COLOURS = { critical: "#dc2626", ok: "#16a34a", info: "#2563eb" } as const;

export function isEmail(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

export function sender(config: Record<string, unknown>): string {
  const from = requiredText(config, "from", { code: "SENDER_REQUIRED", message: "Sender is required" });
  const match = SENDER.exec(from);
  const address = match ? (match[2] ?? match[3]) : "";
  const name = match?.[1]?.trim() ?? "";
  if (!isEmail(address) || (match?.[2] !== undefined && !name)) fail("SENDER_INVALID", "Invalid sender format");
  return name ? `${name} <${address}>` : address;
}

/** `to` as an array of strings or one string of addresses separated by commas, semicolons or spaces. */
export function recipients(config: Record<string, unknown>): string[] {
  const value = config.to;
  let parts: string[];
  if (value === undefined || value === null) parts = [];
  else if (typeof value === "string") parts = [value];
  else if (Array.isArray(value)) {
    parts = value.map((item, i) => (typeof item === "string" ? item : fail("VALIDATION", `to[${i}] must be a string (got ${describe(item)})`)));
  } else return fail("VALIDATION", `to must be an array of addresses or a string (got ${describe(value)})`);
  const addresses = [...new Set(parts.flatMap((part) => part.split(/[\s,;]+/)).filter(Boolean))];
  if (addresses.length === 0) fail("RECIPIENT_REQUIRED", "Recipient is required");
  if (addresses.length > MAX_RECIPIENTS || !addresses.every(isEmail)) fail("RECIPIENT_INVALID", "Invalid recipient address");
  return addresses;
}

/** A sender as the mail APIs take it apart: "Vigil <ops@example.com>" → { email, name }. */
export function senderParts(from: string): { email: string; name?: string } {
  const match = SENDER.exec(from);
  const name = match?.[1]?.trim();
  return { email: (match?.[2] ?? match?.[3] ?? from).trim(), ...(name ? { name } : {}) };
}

/** The plain-text part: the title, a blank line, the lines. */
export function plainText(title: string, lines: string[]): string {
  return lines.length ? [title, "", ...lines].join("\n") : title;
}

export function html(title: string, lines: string[], colour: string): string {
  const body = lines.map((line) => `<p style="margin:4px 0">${escapeHtml(line)}</p>`).join("");
  return (
    `<div style="font-family:-apple-system,'Segoe UI',Roboto,'PingFang SC','Microsoft YaHei',sans-serif;font-size:14px;color:#111827">` +
    `<h2 style="margin:0 0 12px;padding-left:10px;border-left:4px solid ${colour};font-size:18px">${escapeHtml(title)}</h2>` +
    `${body}</div>`
  );
}

/** A mail API channel's config (Resend, SendGrid, Brevo): its API key (sent in a header), the sender, the recipients. */
export function mailApiConfig(config: Record<string, unknown>): { apiKey: string; from: string; to: string[] } {
  const apiKey = requiredText(config, "apiKey", { code: "API_KEY_REQUIRED", message: "API Key is required" }, true);
  return { apiKey: headerSafe(apiKey, "apiKey"), from: sender(config), to: recipients(config) };
}
