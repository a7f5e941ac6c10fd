// Request limits shared by the server and the agent (which batches its reports under them). No imports: the agent
// bundles this file.

/** The largest request body the server reads; bigger ones get 413 BODY_TOO_LARGE, which states this number. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The deepest nesting of arrays and objects a JSON body may have; deeper ones get 400 TOO_DEEP before parsing. */
export const MAX_JSON_DEPTH = 64;
