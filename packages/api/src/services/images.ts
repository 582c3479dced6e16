/**
 * The images of a create or update: each field sent as a file part or a `data:` URI is decoded,
 * checked and stored before the database transaction; if the transaction fails they are deleted
 * again, and images a committed update replaced are deleted after it.
 */
import type { StoredImage } from "../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { ValidationError } from "../errors.ts";
import { decodeDataUri } from "../images/decodeDataUri.ts";
import { deleteImage, storeImage } from "../images/storeImage.ts";

/** Per field: the stored new image, null (remove it), or absent (unchanged). */
export type ImageChanges<F extends string> = Partial<Record<F, StoredImage | null>>;

export async function storeImages<F extends string>(
  deps: Pick<AppDeps, "storage" | "config">,
  fields: readonly F[],
  text: Partial<Record<F, string | null | undefined>>,
  files: Partial<Record<string, Buffer>>,
): Promise<ImageChanges<F>> {
  const max = deps.config.MAX_IMAGE_BYTES;
  const changes: ImageChanges<F> = {};
  try {
    for (const field of fields) {
      const file = files[field];
      const value = text[field];
      if (file && value !== undefined) {
        throw new ValidationError(`${field}: sent both as a file and as a field`, [
          { field, code: "duplicate_image", message: "send the image once" },
        ]);
      }
      if (file) changes[field] = await storeImage(deps.storage, file, field, max);
      else if (value === null) changes[field] = null;
      else if (value !== undefined) {
        const bytes = decodeDataUri(value, field, max);
        changes[field] = await storeImage(deps.storage, bytes, field, max);
      }
    }
  } catch (error) {
    await discardImages(deps, changes);
    throw error;
  }
  return changes;
}

/** Best effort: a file left behind costs disk space, never correctness. */
export async function discardImages(
  deps: Pick<AppDeps, "storage">,
  images: Partial<Record<string, StoredImage | null>>,
): Promise<void> {
  for (const image of Object.values(images)) if (image) await deleteImage(deps.storage, image);
}

/** Runs `write` (the transaction using the new images); on failure the new images are deleted. */
export async function writingImages<T>(
  deps: Pick<AppDeps, "storage">,
  images: Partial<Record<string, StoredImage | null>>,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await discardImages(deps, images);
    throw error;
  }
}
