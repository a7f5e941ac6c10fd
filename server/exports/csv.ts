// CSV as RFC 4180 reads it, safe to open in a spreadsheet.

/**
 * One field: quoted when it holds a comma, a quote or a line break (quotes doubled). Text a spreadsheet would run as a
 * formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe: an error message is data, not
 * a formula (OWASP "CSV injection"). Numbers are written as they are, so -1 stays a number.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line, CRLF-terminated as RFC 4180 has it. */
export const csvLine = (fields: (string | number | boolean | null | undefined)[]): string => `${fields.map(csvField).join(",")}\r\n`;
