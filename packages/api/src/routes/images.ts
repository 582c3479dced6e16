/**
 * GET /images/<id>/<variant>.<ext>: images kept by the local storage. Public (the URLs go into
 * <img> tags) but unguessable, immutable (a new upload gets a new id) and served so a browser
 * never interprets them as anything but an image.
 */
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { Router } from "express";
import type { AppDeps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { IMAGE_KEY_PATTERN } from "../images/imageStorage.ts";
import { z } from "../openapi/zod.ts";
import { ErrorResponse } from "./shared.ts";

export function imagesRouter(deps: AppDeps): Router {
  const router = Router();
  router.get("/images/:id/:file", async (req, res) => {
    const key = `${req.params.id}/${req.params.file}`;
    const object = IMAGE_KEY_PATTERN.test(key) ? await deps.storage.get(key) : undefined;
    if (!object) throw new NotFoundError("image_not_found", "No such image");
    res.set({
      "Content-Type": object.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cross-Origin-Resource-Policy": "cross-origin",
    });
    res.send(object.data);
  });
  return router;
}

export function registerImagesOpenApi(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/images/{id}/{file}",
    tags: ["Images"],
    summary: "An uploaded image or one of its variants (public, cached for a year)",
    request: {
      params: z.object({
        id: z.uuid().openapi({ param: { name: "id", in: "path" } }),
        file: z.string().openapi({ param: { name: "file", in: "path" }, example: "large.webp" }),
      }),
    },
    responses: {
      200: {
        description: "The image",
        content: {
          "image/webp": { schema: { type: "string", format: "binary" } },
          "image/png": { schema: { type: "string", format: "binary" } },
          "image/jpeg": { schema: { type: "string", format: "binary" } },
          "image/gif": { schema: { type: "string", format: "binary" } },
        },
      },
      404: {
        description: "No such image",
        content: { "application/json": { schema: ErrorResponse } },
      },
    },
  });
}
