// The browser check's settings: the page, what must be on it, and an optional short scripted path through it.
import { Type } from "@sinclair/typebox";

export const MAX_STEPS = 10;

export const browserStep = Type.Object({
  action: Type.Union([Type.Literal("click"), Type.Literal("fill"), Type.Literal("press"), Type.Literal("waitFor")], {
    error: "Each step's action must be click, fill, press or waitFor",
  }),
  selector: Type.String({ minLength: 1, maxLength: 500, error: "Each step needs a selector (CSS, or text=…), at most 500 characters" }),
  /** fill: the text to type ("{{secret}}" types the secret field); press: a key ("Enter", "Control+A"). */
  value: Type.String({ default: "", maxLength: 1_000, error: "A step's value must be at most 1 000 characters" }),
});

export const browserSettings = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2_048,
    pattern: "^https?://[^\\s/?#]+[^\\s]*$",
    error: "URL must start with http:// or https://, at most 2 048 characters",
  }),
  selector: Type.String({ default: "", maxLength: 500, error: "Selector must be at most 500 characters" }),
  keyword: Type.String({ default: "", maxLength: 500, error: "Text must be at most 500 characters" }),
  steps: Type.Array(browserStep, { default: [], maxItems: MAX_STEPS, error: `At most ${MAX_STEPS} steps` }),
  secret: Type.String({ default: "", maxLength: 1_000, secret: true, error: "Secret must be at most 1 000 characters" }),
});
