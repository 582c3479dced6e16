/** The `images` table: uploaded image bytes by key, for every API process on one database. */
import { eq } from "drizzle-orm";
import type { Database } from "./driver/client.ts";
import { images } from "./schema.ts";

export interface ImageRow {
  data: Buffer;
  contentType: string;
}

export async function insertImage(db: Database, key: string, image: ImageRow): Promise<void> {
  await db.insert(images).values({ key, ...image });
}

export async function findImage(db: Database, key: string): Promise<ImageRow | undefined> {
  const [row] = await db
    .select({ data: images.data, contentType: images.contentType })
    .from(images)
    .where(eq(images.key, key));
  return row;
}

export async function deleteImage(db: Database, key: string): Promise<void> {
  await db.delete(images).where(eq(images.key, key));
}
