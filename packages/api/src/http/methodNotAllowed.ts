/**
 * What a path answers to a method it does not declare: 405 `method_not_allowed` with `Allow`
 * naming the methods it takes (HEAD wherever GET is). The router answers it (`mountEndpoints.ts`)
 * and the OpenAPI document describes it (`openApiDocument.ts`) from here: for every path, one
 * declaration per method of `DOCUMENTED_METHODS` it does not take, whose only own answer is 405.
 */
import { type EndpointSpec, expressPath, type Method } from "./endpoint.ts";

/**
 * The methods the document describes for every path: those the API uses, and PUT. Any other
 * method (OPTIONS, TRACE, HEAD where there is no GET) answers 405 as well.
 */
export const DOCUMENTED_METHODS: readonly Method[] = ["get", "put", "post", "patch", "delete"];

export const NOT_ALLOWED_TAG = "Methods not allowed";

/**
 * Each path's methods, as `Allow` lists them, by OpenAPI path: upper case, in the order of
 * `DOCUMENTED_METHODS` whatever the order of the declarations, and HEAD last wherever GET is.
 */
export function allowedMethods(
  specs: readonly EndpointSpec[],
): Map<EndpointSpec["path"], string[]> {
  const allowed = new Map<EndpointSpec["path"], string[]>();
  for (const { path } of specs) {
    if (allowed.has(path)) continue;
    const methods = DOCUMENTED_METHODS.filter((method) =>
      specs.some((spec) => spec.path === path && spec.method === method),
    ).map((method) => method.toUpperCase());
    allowed.set(path, methods.includes("GET") ? [...methods, "HEAD"] : methods);
  }
  return allowed;
}

/** The 405 declarations of every path: one per documented method the path does not take. */
export function notAllowedSpecs(specs: readonly EndpointSpec[]): EndpointSpec[] {
  const declared = new Set(specs.map(({ path, method }) => `${method} ${path}`));
  const notAllowed: EndpointSpec[] = [];
  for (const [path, allow] of allowedMethods(specs)) {
    const params = specs.find((spec) => spec.path === path)?.params;
    for (const method of DOCUMENTED_METHODS) {
      if (declared.has(`${method} ${path}`)) continue;
      notAllowed.push({
        operationId: `${method}${pascalCase(path)}NotAllowed`,
        method,
        path,
        tag: NOT_ALLOWED_TAG,
        summary: `Not allowed: ${path} takes ${allow.join(", ")}`,
        description: `Answers 405 \`method_not_allowed\` with \`Allow: ${allow.join(", ")}\`, before any key is checked.`,
        auth: "public",
        params,
        responses: {
          405: {
            description: "Not allowed on this path: Allow names the methods it takes",
            headers: ["Allow"],
          },
        },
      });
    }
  }
  return notAllowed;
}

/**
 * The 405 declaration of `method` (lower case) on `path` (Express form), if it is documented:
 * what the response audit holds that answer against.
 */
export function notAllowedSpecOf(
  specs: readonly EndpointSpec[],
): (method: string, path: string) => EndpointSpec | undefined {
  const byRoute = new Map(
    notAllowedSpecs(specs).map((spec) => [`${spec.method} ${expressPath(spec.path)}`, spec]),
  );
  return (method, path) => byRoute.get(`${method.toLowerCase()} ${path}`);
}

/** `/webhooks/{id}/rotate-secret` → `WebhooksIdRotateSecret`. */
function pascalCase(path: string): string {
  return path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join("");
}
