// ...and its own tables, so database setup costs the same; only the handlers differ.
export * from "../../ponder.schema.ts";
