import { describe, expect, test } from "bun:test";
import { createInstance } from "i18next";
import { NAMES, NOTES, note } from "../../../server/import/kuma/notes";
import enUS from "../../i18n/en-US";
import { i18nOptions } from "../../i18n";
import zhCN from "../../i18n/zh-CN";
import { itemName, noteText, sourceLabel } from "./planText";

type Tree = { [key: string]: string | Tree };
const at = (tree: Tree, path: string): unknown => path.split(".").reduce<unknown>((node, k) => (node && typeof node === "object" ? (node as Tree)[k] : undefined), tree);
const placeholders = (s: string) => [...new Set([...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))].sort();

async function i18nIn(lng: string) {
  const instance = createInstance();
  await instance.init({ ...i18nOptions, lng, detection: undefined });
  return instance;
}

describe("the Kuma import's notes in the UI's languages", () => {
  test("every code the server can emit is translated in both languages, with the server's placeholders", () => {
    for (const [code, english] of Object.entries(NOTES)) {
      for (const [lang, dict] of [["en-US", enUS], ["zh-CN", zhCN]] as const) {
        const text = at(dict as Tree, `import.notes.${code}`);
        expect({ lang, code, type: typeof text }).toEqual({ lang, code, type: "string" });
        expect({ lang, code, vars: placeholders(text as string) }).toEqual({ lang, code, vars: placeholders(english) });
      }
      // The UI's English is the server's sentence: the CLI and the screen say the same.
      expect({ code, text: at(enUS as Tree, `import.notes.${code}`) }).toEqual({ code, text: english });
    }
    for (const [code, english] of Object.entries(NAMES)) {
      expect(at(enUS as Tree, `import.names.${code}`)).toBe(english);
      expect(typeof at(zhCN as Tree, `import.names.${code}`)).toBe("string");
    }
  });

  test("zh-CN reads a note, a setting's name and the source in Chinese; English matches the server's text", async () => {
    const docker = note("monitor.noCheck", { type: "docker" });
    const zh = await i18nIn("zh-CN");
    const en = await i18nIn("en-US");
    expect(noteText(zh, docker)).toBe("Vigil 还没有 docker 检查。");
    expect(noteText(en, docker)).toBe(docker.text);
    const heartbeats = note("history.heartbeats", { total: 17, up: 10, down: 7, maintenance: 0 });
    expect(noteText(en, heartbeats)).toBe(heartbeats.text);
    expect(noteText(zh, heartbeats)).toBe("17 条心跳：10 条正常，7 条故障或待定（按 Kuma 计算可用率的方式算作故障），0 条处于维护中。");

    const zone = { kind: "setting", sourceId: "serverTimezone", name: "Time zone", nameCode: "timeZone", action: "update" as const, notes: [] };
    expect(itemName(zh, zone)).toBe("时区");
    expect(itemName(zh, { ...zone, name: "primaryBaseURL", nameCode: undefined })).toBe("primaryBaseURL");

    expect(sourceLabel(zh, { schema: "2.x", label: "Uptime Kuma 2.x database (kuma.db)", file: "kuma.db" })).toBe("Uptime Kuma 2.x 数据库（kuma.db）");
    expect(sourceLabel(en, { schema: "1.x-json", label: "x", file: "backup.json", version: "1.23.16" })).toBe("Uptime Kuma 1.23.16 backup (backup.json)");
  });

  test("a code this UI does not know (a newer server) shows the server's English text", async () => {
    const zh = await i18nIn("zh-CN");
    expect(noteText(zh, { code: "monitor.somethingNew", values: {}, text: "Something new." })).toBe("Something new.");
  });
});
