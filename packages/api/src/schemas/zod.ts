/**
 * zod with `.openapi()` metadata. Every schema that appears in the OpenAPI document imports `z`
 * from here, so validation, types and the document come from one definition.
 */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

export { z };
