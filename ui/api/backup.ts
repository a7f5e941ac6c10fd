import { fetchFile } from "./client";

/** GET /api/backup (admins): a consistent copy of the SQLite database; 409 BACKUP_POSTGRES on PostgreSQL. */
export const downloadBackup = () => fetchFile("/api/backup", "vigil.db");
