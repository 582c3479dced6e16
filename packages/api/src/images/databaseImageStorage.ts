/**
 * Images in the database's `images` table, served by the API at `/images/<key>`: with PostgreSQL,
 * every API process sees every upload, whichever process took it.
 *
 * Images uploaded before the API stored them here live in the process's local folder; they are
 * still read (and deleted) there, so an upgrade loses none.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { images } from "../db/schema.ts";
import {
  IMAGE_KEY_PATTERN,
  type ImageStorage,
  type LocalImageStorage,
  type StoredObject,
} from "./imageStorage.ts";

export class DatabaseImageStorage implements ImageStorage {
  constructor(
    private readonly db: Database,
    private readonly earlierUploads?: LocalImageStorage,
  ) {}

  async put(key: string, { data, contentType }: StoredObject): Promise<void> {
    if (!IMAGE_KEY_PATTERN.test(key)) throw new Error(`invalid image key: ${key}`);
    await this.db.insert(images).values({ key, contentType, data });
  }

  async get(key: string): Promise<StoredObject | undefined> {
    if (!IMAGE_KEY_PATTERN.test(key)) return undefined;
    const [row] = await this.db
      .select({ data: images.data, contentType: images.contentType })
      .from(images)
      .where(eq(images.key, key));
    return row ?? this.earlierUploads?.get(key);
  }

  async delete(key: string): Promise<void> {
    await this.db.delete(images).where(eq(images.key, key));
    await this.earlierUploads?.delete(key);
  }

  url(key: string, baseUrl: string): string {
    return `${baseUrl}/images/${key}`;
  }
}
