/**
 * The Swagger UI page at /docs, served from the local swagger-ui-dist package: no CDN, works
 * offline. It reads the document at /openapi.json (an endpoint of its own).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { Router } from "express";

const swaggerUiDir = path.dirname(
  createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"),
);

/** Only what the page loads; the package's own index.html points at a remote example. */
const ASSETS = new Set([
  "swagger-ui.css",
  "swagger-ui.css.map",
  "swagger-ui-bundle.js",
  "swagger-ui-bundle.js.map",
  "favicon-16x16.png",
  "favicon-32x32.png",
]);

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Collectibles API</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
    <!-- Without an icon of its own, a browser asks for /favicon.ico: a 404 in the console. -->
    <link rel="icon" type="image/png" sizes="32x32" href="/docs/favicon-32x32.png" />
    <link rel="icon" type="image/png" sizes="16x16" href="/docs/favicon-16x16.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
});
`;

export function docsRouter(): Router {
  const router = Router();
  router.get(["/docs", "/docs/"], (_req, res) => {
    res.set(
      "Content-Security-Policy",
      "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
    );
    res.type("html").send(PAGE);
  });
  router.get("/docs/init.js", (_req, res) => {
    res.type("application/javascript").send(INIT);
  });
  router.get("/docs/:file", (req, res, next) => {
    if (!ASSETS.has(req.params.file)) return next();
    res.sendFile(req.params.file, { root: swaggerUiDir, maxAge: "1d" });
  });
  return router;
}
