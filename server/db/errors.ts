/** The database was written by a newer Vigil: this build refuses it rather than misread it. */
export class NewerDatabaseError extends Error {}

/** The database could not be reached or opened (a wrong URL, a server that is down, a refused login). */
export class DatabaseUnavailableError extends Error {}
