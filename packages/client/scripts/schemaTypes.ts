/**
 * The client's types as openapi-typescript writes them from the API's committed OpenAPI document:
 * used by `pnpm generate` to write src/schema.d.ts and by the test that fails when that file is
 * stale, so both produce exactly the same text.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";

/** packages/api/openapi.json, the document `GET /openapi.json` serves. */
export const OPENAPI_DOCUMENT = path.resolve(import.meta.dirname, "../../api/openapi.json");
/** The generated types, committed (a `.ts` file holding only types, so tsc emits its declarations). */
export const SCHEMA_FILE = path.resolve(import.meta.dirname, "../src/schema.ts");

export async function schemaTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(OPENAPI_DOCUMENT), { silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}
