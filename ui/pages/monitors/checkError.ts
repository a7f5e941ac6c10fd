// A failed check's reason in the reader's language: the server's sentence (server/monitors/check-errors.ts) mapped to
// its stable code, translated with its parameters.
import type { TFunction } from "i18next";
import { parseCheckError } from "../../../server/monitors/check-errors";

export function translateCheckError(t: TFunction, message: string): string {
  const { code, params } = parseCheckError(message);
  const values = code === "STATUS" ? { ...params, expected: params.expected.replace(/ or /g, t("monitors.checkErrors.or")) } : params;
  // `as never`: the codes contain "_", which i18next's key typing reads as a context separator.
  return t(`monitors.checkErrors.${code}` as never, values) as string;
}
