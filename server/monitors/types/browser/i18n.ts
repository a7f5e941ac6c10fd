import type { TypeI18n } from "../settings-type";

export const browserI18n: TypeI18n = {
  "en-US": {
    name: "Browser",
    description: "Loads the page in a real Chromium, can click and type through a short path, then looks for an element and a text.",
    fields: {
      url: { label: "URL", hint: "The page to load, http:// or https://" },
      selector: { label: "Element", hint: "A CSS selector (or text=…) that must be visible once the page and the steps are done" },
      keyword: { label: "Text", hint: "Text that must be on the page" },
      steps: {
        label: "Steps",
        hint: "Up to 10, in order: click, fill (type a value), press (a key such as Enter), waitFor (an element). A value of {{secret}} types the secret.",
      },
      secret: { label: "Secret", hint: "A password a fill step types as {{secret}}; kept secret, never shown in errors" },
      // A step's own fields (steps is a list of objects).
      "steps.action": { label: "Action" },
      "steps.selector": { label: "Element", hint: "CSS selector, or text=…" },
      "steps.value": { label: "Value", hint: "fill: the text; press: the key" },
    },
    options: { "steps.action": { click: "Click", fill: "Fill", press: "Press a key", waitFor: "Wait for" } },
  },
  "zh-CN": {
    name: "浏览器",
    description: "在真实的 Chromium 中加载页面，可按简短的步骤点击和输入，然后检查页面元素和文本。",
    fields: {
      url: { label: "URL", hint: "要加载的页面，以 http:// 或 https:// 开头" },
      selector: { label: "元素", hint: "页面加载并执行完步骤后必须可见的 CSS 选择器（或 text=…）" },
      keyword: { label: "文本", hint: "页面上必须出现的文本" },
      steps: {
        label: "步骤",
        hint: "最多 10 步，依次执行：click（点击）、fill（输入值）、press（按键，如 Enter）、waitFor（等待元素）。值为 {{secret}} 时输入密钥。",
      },
      secret: { label: "密钥", hint: "fill 步骤以 {{secret}} 输入的密码；保密存储，不会出现在错误信息中" },
      "steps.action": { label: "操作" },
      "steps.selector": { label: "元素", hint: "CSS 选择器，或 text=…" },
      "steps.value": { label: "值", hint: "fill：输入的文本；press：按键" },
    },
    options: { "steps.action": { click: "点击", fill: "输入", press: "按键", waitFor: "等待" } },
  },
};
