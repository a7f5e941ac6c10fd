import { describe, expect, test } from "bun:test";
import { PROVIDERS } from "./index";
import { mask, maskConfig, maskUrlKeys, mergeSecrets } from "./mask";

const SLACK = "https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklx9Qz";
const BOT = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw_";

describe("mask", () => {
  test("URLs keep scheme and host, then the last 4 characters", () => {
    expect(mask(SLACK)).toBe("https://hooks.slack.com/…x9Qz");
    expect(mask("https://oapi.dingtalk.com/robot/send?access_token=0f1e2d3c4b5a6978")).toBe("https://oapi.dingtalk.com/…6978");
    expect(mask("http://10.0.0.5:8080/hook/abcdefghijkl")).toBe("http://10.0.0.5:8080/…ijkl");
  });

  test("URL credentials are never shown; a short path shows no tail", () => {
    expect(mask("https://user:pa55word@example.com/hooks/abcdefghijkl")).toBe("https://example.com/…ijkl");
    expect(mask("https://example.com/ab")).toBe("https://example.com/…");
    expect(mask("HTTPS://Example.COM/hooks/abcdefghijkl")).toBe("https://example.com/…ijkl");
  });

  test("other secrets: •••• and the last 4, or all hidden under 12 characters", () => {
    expect(mask(BOT)).toBe("••••saw_");
    expect(mask("re_123456789")).toBe("••••6789");
    expect(mask("re_12345678")).toBe("••••••••");
    expect(mask("x")).toBe("••••••••");
    expect(mask("not a url https://x.y/abcdefghijkl")).toBe("••••ijkl");
  });
});

describe("maskUrlKeys", () => {
  test("credentials, query and fragment become ••••; scheme, host, port and path stay", () => {
    expect(maskUrlKeys("https://user:pass@hooks.example.com/vigil?token=abc")).toBe("https://••••@hooks.example.com/vigil?••••");
    expect(maskUrlKeys("http://10.0.0.5:8080/hooks/ops?key=SECRETKEY123&team=ops")).toBe("http://10.0.0.5:8080/hooks/ops?••••");
    expect(maskUrlKeys("https://:pa55word@example.com/h#access_token=abc")).toBe("https://••••@example.com/h#••••");
    expect(maskUrlKeys("HTTPS://Example.COM/h?k=v")).toBe("https://example.com/h?••••");
  });

  test("a URL with none of them is shown unchanged; a value that is no URL is masked whole", () => {
    expect(maskUrlKeys("https://hooks.example.com/vigil")).toBe("https://hooks.example.com/vigil");
    expect(maskUrlKeys("https://example.com")).toBe("https://example.com");
    expect(maskUrlKeys("not a url, SECRETKEY123")).toBe("••••Y123");
  });
});

describe("maskConfig", () => {
  test("masks each secret field of the type, leaves the rest, and does not touch the original", () => {
    const config = { botToken: BOT, chatId: "-100123" };
    expect(maskConfig(PROVIDERS.telegram, config)).toEqual({ botToken: "••••saw_", chatId: "-100123" });
    expect(config.botToken).toBe(BOT);
    expect(maskConfig(PROVIDERS.slack, { url: SLACK })).toEqual({ url: "https://hooks.slack.com/…x9Qz" });
    expect(maskConfig(PROVIDERS.resend, { apiKey: "re_123456789_AbCd", from: "a@b.co", to: ["c@d.co"] })).toEqual({
      apiKey: "••••AbCd",
      from: "a@b.co",
      to: ["c@d.co"],
    });
  });

  test("a provider's own mask for a field: the webhook URL keeps its endpoint and hides its key", () => {
    expect(maskConfig(PROVIDERS.webhook, { url: "https://example.com/hook", secret: "whsec_4f9a8b7c6d5e" })).toEqual({
      url: "https://example.com/hook",
      secret: "••••6d5e",
    });
    expect(maskConfig(PROVIDERS.webhook, { url: "https://user:pw@example.com/hook?key=SECRETKEY123" })).toEqual({ url: "https://••••@example.com/hook?••••" });
  });

  test("absent optional secrets stay absent", () => {
    const masked = maskConfig(PROVIDERS.dingtalk, { url: "https://oapi.dingtalk.com/robot/send?access_token=0f1e2d3c4b5a6978" });
    expect(masked).toEqual({ url: "https://oapi.dingtalk.com/…6978" });
    expect("secret" in masked).toBe(false);
  });
});

describe("mergeSecrets", () => {
  const stored = { url: "https://oapi.dingtalk.com/robot/send?access_token=0f1e2d3c4b5a6978", secret: "SEC0123456789abcdef" };

  test("a secret left out keeps the stored value", () => {
    expect(mergeSecrets(PROVIDERS.dingtalk, stored, {})).toEqual(stored);
    expect(mergeSecrets(PROVIDERS.telegram, { botToken: BOT, chatId: "1" }, { chatId: "2" })).toEqual({ botToken: BOT, chatId: "2" });
  });

  test("the mask sent back keeps the stored value (so does the mask with stray spaces)", () => {
    expect(mergeSecrets(PROVIDERS.dingtalk, stored, maskConfig(PROVIDERS.dingtalk, stored))).toEqual(stored);
    expect(mergeSecrets(PROVIDERS.slack, { url: SLACK }, { url: " https://hooks.slack.com/…x9Qz " })).toEqual({ url: SLACK });
    expect(mergeSecrets(PROVIDERS.resend, { apiKey: "short" }, { apiKey: "••••••••", from: "a@b.co" })).toEqual({ apiKey: "short", from: "a@b.co" });
  });

  test("a new value replaces it; a different mask-looking value is taken as given", () => {
    expect(mergeSecrets(PROVIDERS.dingtalk, stored, { url: "https://oapi.dingtalk.com/robot/send?access_token=new", secret: "SECnew" })).toEqual({
      url: "https://oapi.dingtalk.com/robot/send?access_token=new",
      secret: "SECnew",
    });
    expect(mergeSecrets(PROVIDERS.slack, { url: SLACK }, { url: "https://hooks.slack.com/…AAAA" })).toEqual({ url: "https://hooks.slack.com/…AAAA" });
  });

  test("a webhook URL sent back with its own mask keeps the stored one; another URL replaces it", () => {
    const hook = { url: "https://user:pw@example.com/hook?key=SECRETKEY123" };
    expect(mergeSecrets(PROVIDERS.webhook, hook, maskConfig(PROVIDERS.webhook, hook))).toEqual(hook);
    expect(mergeSecrets(PROVIDERS.webhook, hook, { url: "https://example.com/hook?key=NEWKEY" })).toEqual({ url: "https://example.com/hook?key=NEWKEY" });
    expect(mergeSecrets(PROVIDERS.webhook, hook, { url: "https://••••@example.com/other?••••" })).toEqual({ url: "https://••••@example.com/other?••••" });
  });

  test("an empty string clears an optional secret", () => {
    const merged = mergeSecrets(PROVIDERS.feishu, { url: "https://open.feishu.cn/open-apis/bot/v2/hook/abc", secret: "s3cr3tvalue!" }, { secret: "" });
    expect(merged).toEqual({ url: "https://open.feishu.cn/open-apis/bot/v2/hook/abc" });
    expect(PROVIDERS.feishu.validate(merged)).toEqual({ ok: true, config: { url: "https://open.feishu.cn/open-apis/bot/v2/hook/abc" } });
    expect(mergeSecrets(PROVIDERS.webhook, { url: "https://example.com", secret: "abc" }, { url: "https://example.com", secret: "" })).toEqual({
      url: "https://example.com",
    });
  });

  test("an empty string for a required secret is not restored: validation then reports it", () => {
    const merged = mergeSecrets(PROVIDERS.telegram, { botToken: BOT, chatId: "1" }, { botToken: "", chatId: "1" });
    expect(PROVIDERS.telegram.validate(merged)).toEqual({ ok: false, error: { code: "BOT_TOKEN_REQUIRED", message: "Bot Token is required" } });
  });

  test("non-secret fields are not merged, and the inputs are not modified", () => {
    const incoming = { chatId: "2" };
    const storedTelegram = { botToken: BOT, chatId: "1" };
    expect(mergeSecrets(PROVIDERS.telegram, storedTelegram, incoming)).toEqual({ botToken: BOT, chatId: "2" });
    expect(incoming).toEqual({ chatId: "2" });
    expect(mergeSecrets(PROVIDERS.telegram, storedTelegram, {})).toEqual({ botToken: BOT });
  });

  test("nothing stored and nothing sent: the field stays absent", () => {
    const merged = mergeSecrets(PROVIDERS.webhook, { url: "https://example.com" }, { url: "https://example.com" });
    expect(merged).toEqual({ url: "https://example.com" });
    expect("secret" in merged).toBe(false);
  });
});
