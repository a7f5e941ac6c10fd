import type { ManagedObject } from "../../server/config-file/public";
import { api } from "./client";

// Configuration as code (server/config-file/): which objects a file manages, for the UI's marks.
export type * from "../../server/config-file/public";

export const listManaged = () => api.get<{ managed: ManagedObject[] }>("/api/config/managed");
