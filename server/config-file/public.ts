// The wire types of /api/config that the UI uses (ui/api/configFile.ts imports them, never writes them again).
import type { Kind } from "./schema";

export type ManagedKind = Kind;

/** An object a configuration file manages (GET /api/config/managed). */
export interface ManagedObject {
  kind: ManagedKind;
  /** Its key in the file. */
  key: string;
  /** Its id (a tag's name for tags). */
  objectId: string;
  /** Changed in the UI or the API since the last apply: the next apply puts the file's version back. */
  drifted: boolean;
}
