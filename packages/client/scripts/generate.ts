/** `pnpm generate`: rewrites src/schema.ts from packages/api/openapi.json. */
import fs from "node:fs";
import { SCHEMA_FILE, schemaTypes } from "./schemaTypes.ts";

fs.writeFileSync(SCHEMA_FILE, await schemaTypes());
console.log(`wrote ${SCHEMA_FILE}`);
