/**
 * Turns uploaded bytes into a stored image: the type is sniffed from the content, the image is
 * decoded (which also rejects corrupt files and decompression bombs), the original is kept as
 * uploaded and four WebP variants are made with sharp.
 */
import { randomUUID } from "node:crypto";
import type { StoredImage } from "../db/schema.ts";
import { PayloadTooLargeError, ValidationError } from "../errors.ts";
import type { ImageStorage } from "./imageStorage.ts";
import { IMAGE_CONTENT_TYPES, sniffImageType } from "./sniffImageType.ts";

export type ImageVariant = "large" | "medium" | "small" | "thumb";

/**
 * `inside`: scaled down (never up) to fit a square of `size`, keeping the aspect ratio.
 * `cover`: cropped to exactly `size` x `size` around the centre.
 */
export const IMAGE_VARIANTS: Record<ImageVariant, { size: number; fit: "inside" | "cover" }> = {
  large: { size: 1024, fit: "inside" },
  medium: { size: 512, fit: "inside" },
  small: { size: 256, fit: "inside" },
  thumb: { size: 128, fit: "cover" },
};

/** Refuses images whose decoded size would exhaust memory (a few KB of PNG can claim 100k^2). */
const MAX_INPUT_PIXELS = 40_000_000;

const EXTENSIONS = { png: "png", jpeg: "jpg", webp: "webp", gif: "gif" } as const;

/**
 * sharp, loaded with the first image: it brings libvips, some 29 MiB of RSS that an API which
 * only reads never needs.
 */
let sharpModule: Promise<typeof import("sharp")> | undefined;
async function loadSharp() {
  sharpModule ??= import("sharp");
  return (await sharpModule).default;
}

export function checkImageSize(bytes: number, maxBytes: number, field: string): void {
  if (bytes > maxBytes) {
    throw new PayloadTooLargeError(
      `${field}: image is ${bytes} bytes, the limit is ${maxBytes}`,
      [{ field, code: "image_too_large", message: `at most ${maxBytes} bytes` }],
      "image_too_large",
    );
  }
}

export async function storeImage(
  storage: ImageStorage,
  bytes: Buffer,
  field: string,
  maxBytes: number,
): Promise<StoredImage> {
  checkImageSize(bytes.length, maxBytes, field);
  const type = sniffImageType(bytes);
  if (!type) {
    throw new ValidationError(
      `${field}: not a PNG, JPEG, WebP or GIF image`,
      [{ field, code: "unsupported_image_type", message: "must be PNG, JPEG, WebP or GIF" }],
      "unsupported_image_type",
    );
  }

  const invalid = () =>
    new ValidationError(
      `${field}: the image cannot be decoded or is too large in pixels`,
      [{ field, code: "invalid_image", message: "corrupt image or more than 40 megapixels" }],
      "invalid_image",
    );
  // Outside the try below: sharp that cannot load is ours to fix (500), not the client's image.
  const sharp = await loadSharp();
  const load = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });
  // Decode and resize everything first: a failure here is the client's image (400); a failure
  // while storing below is ours (500).
  let resized: [ImageVariant, Buffer][];
  try {
    const metadata = await load().metadata();
    if (!metadata.width || !metadata.height) throw invalid();
    resized = await Promise.all(
      (Object.keys(IMAGE_VARIANTS) as ImageVariant[]).map(async (variant) => {
        const { size, fit } = IMAGE_VARIANTS[variant];
        const data = await load()
          .autoOrient()
          .resize({ width: size, height: size, fit, withoutEnlargement: fit === "inside" })
          .webp({ quality: 82 })
          .toBuffer();
        return [variant, data] as [ImageVariant, Buffer];
      }),
    );
  } catch {
    throw invalid();
  }

  const id = randomUUID();
  const keys: StoredImage = {
    original: `${id}/original.${EXTENSIONS[type]}`,
    large: `${id}/large.webp`,
    medium: `${id}/medium.webp`,
    small: `${id}/small.webp`,
    thumb: `${id}/thumb.webp`,
  };
  try {
    await storage.put(keys.original, { data: bytes, contentType: IMAGE_CONTENT_TYPES[type] });
    for (const [variant, data] of resized) {
      await storage.put(keys[variant], { data, contentType: "image/webp" });
    }
  } catch (error) {
    await deleteImage(storage, keys);
    throw error;
  }
  return keys;
}

/** Best effort: a file left behind costs disk space, never correctness. */
export async function deleteImage(storage: ImageStorage, image: StoredImage): Promise<void> {
  await Promise.all(Object.values(image).map((key) => storage.delete(key).catch(() => {})));
}

export function imageUrls(
  storage: ImageStorage,
  image: StoredImage | null,
  baseUrl: string,
): Record<keyof StoredImage, string> | null {
  if (!image) return null;
  return {
    large: storage.url(image.large, baseUrl),
    medium: storage.url(image.medium, baseUrl),
    small: storage.url(image.small, baseUrl),
    thumb: storage.url(image.thumb, baseUrl),
    original: storage.url(image.original, baseUrl),
  };
}
