// The mongodb check's settings (the form and the API read this schema; no driver here).
import { Type } from "@sinclair/typebox";

export const mongodbSettings = Type.Object({
  connectionString: Type.String({
    secret: "url",
    minLength: 11,
    maxLength: 2000,
    pattern: "^mongodb(\\+srv)?://",
    error: "Connection string must start with mongodb:// or mongodb+srv:// (mongodb://user:password@db.example.com:27017/?tls=true)",
  }),
  database: Type.String({
    default: "admin",
    minLength: 1,
    maxLength: 63,
    pattern: '^[^/\\\\. "$*<>:|?]+$',
    error: "Database must be a database name of 1 to 63 characters, without / \\ . space \" $ * < > : | ?",
  }),
  command: Type.String({
    default: '{"ping":1}',
    format: "textarea",
    minLength: 2,
    maxLength: 2000,
    error: 'Command must be a JSON object of at most 2 000 characters, such as {"ping":1}',
  }),
  expected: Type.String({ default: "", maxLength: 1000, error: "Keyword must be at most 1 000 characters" }),
});
