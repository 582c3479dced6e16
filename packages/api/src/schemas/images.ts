/** Images as answered (URLs of every size) and as accepted (a data: URI or a file part). */
import { z } from "./zod.ts";

export const ImageUrls = z
  .strictObject({
    large: z.url(),
    medium: z.url(),
    small: z.url(),
    thumb: z.url(),
    original: z.url(),
  })
  .openapi("ImageUrls", {
    description:
      "large/medium/small fit in 1024/512/256 px squares (never enlarged), thumb is 128x128 " +
      "cropped, all WebP; original is the uploaded file.",
  });

/** An image in a JSON body: a base64 `data:` URI, or null to remove the image (PATCH). */
export const ImageInput = z.string().openapi({
  description:
    "data:image/<png|jpeg|webp|gif>;base64,... (type checked from the content; no SVG, no " +
    "remote URLs). With multipart/form-data send a file part with the same name instead.",
  example: "data:image/png;base64,iVBORw0KGgo...",
});

/** In multipart/form-data an image is a file part; the other fields are the same as in JSON. */
export const ImageFile = z
  .string()
  .openapi({ format: "binary", description: "PNG, JPEG, WebP or GIF file (no SVG)" });
