// The plan in the reader's language: the server sends each note as a code with values besides its English text
// (server/import/kuma/notes.ts), a setting named by a word of Vigil's with its code, and the source as schema + file.
// A code this UI does not know (a newer server) shows the server's English text.
import type { i18n as I18n } from "i18next";
import type { ImportPlan, Note, PlanItem } from "../../api/import";

const SOURCE_KEY: Record<ImportPlan["source"]["schema"], string> = { "2.x": "database2", "1.23": "database1", "1.x-json": "backup" };

export function noteText(i18n: I18n, note: Note): string {
  const key = `import.notes.${note.code}`;
  return i18n.exists(key) ? (i18n.t(key as never, note.values) as string) : note.text;
}

export function itemName(i18n: I18n, item: PlanItem): string {
  const key = `import.names.${item.nameCode}`;
  return item.nameCode && i18n.exists(key) ? (i18n.t(key as never) as string) : item.name;
}

export function sourceLabel(i18n: I18n, source: ImportPlan["source"]): string {
  const key = `import.source.${SOURCE_KEY[source.schema]}`;
  return i18n.exists(key) ? (i18n.t(key as never, { file: source.file, version: source.version ?? "1.x" }) as string) : source.label;
}
