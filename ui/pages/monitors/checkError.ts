// A failed check's reason in the reader's language: the server's sentence (server/monitors/check-errors.ts) mapped to
// its stable code, translated with its parameters.
import type { TFunction } from "i18next";
import { mapLocations, parseCheckError, SERVER_LOCATION_NAME } from "../../../server/monitors/check-errors";

export function translateCheckError(t: TFunction, message: string): string {
  const { code, params } = parseCheckError(message);
  let values = params;
  if (code === "STATUS") values = { ...params, expected: params.expected.replace(/ or /g, t("monitors.checkErrors.or")) };
  else if (code === "LOCATIONS_DOWN") values = { ...params, names: translateLocationErrors(t, params.names) };
  // `as never`: the codes contain "_", which i18next's key typing reads as a context separator.
  return t(`monitors.checkErrors.${code}` as never, values) as string;
}

/**
 * The locations of a combined down verdict, "Vigil (connection refused), tokyo (timeout after 30 s)", with each
 * location's own error translated and the server named as the rest of the UI names it ("Vigil server"); agents'
 * names stay as they are.
 */
export function translateLocationErrors(t: TFunction, names: string): string {
  return mapLocations(names, t("monitors.locations.separator"), (name, error) => {
    const named = name === SERVER_LOCATION_NAME ? t("monitors.locations.server") : name;
    return error === null ? named : t("monitors.locations.nameWithError", { name: named, error: translateCheckError(t, error) });
  });
}
