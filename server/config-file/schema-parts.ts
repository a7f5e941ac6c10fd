// Schema pieces every section shares (kept apart from schema.ts, which imports the sections).
import { t } from "elysia";

/** A stable key: what objects are matched by (not their names). */
export const KEY_PATTERN = "^[a-z0-9][a-z0-9-]{0,62}$";
const KEY_MESSAGE = "a key is 1-63 lowercase letters, digits and dashes, starting with a letter or digit";

export const key = t.String({ pattern: KEY_PATTERN, error: KEY_MESSAGE, description: "Stable key of this object (unique per kind): objects are matched by it, not by their names." });
export const keyRef = (what: string) => t.String({ pattern: KEY_PATTERN, error: `${what} must be a key`, description: `The key of a ${what} in this file.` });
