/**
 * Images in the database's `images` table, served by the API at `/images/<key>`: with PostgreSQL,
 * every API process sees every upload, whichever process took it.
 *
 * Images uploaded before the API stored them here live in the process's local folder; they are
 * still read (and deleted) there, so an upgrade loses none.
 */
import type { Database } from "../db/driver/client.ts";
import { deleteImage, findImage, insertImage } from "../db/images.ts";
import {
  IMAGE_KEY_PATTERN,
  type ImageStorage,
  type LocalImageStorage,
  type StoredObject,
} from "./imageStorage.ts";

export class DatabaseImageStorage implements ImageStorage {
  private readonly db: Database;
  private readonly earlierUploads: LocalImageStorage | undefined;

  constructor(db: Database, earlierUploads?: LocalImageStorage) {
    this.db = db;
    this.earlierUploads = earlierUploads;
  }

  async put(key: string, { data, contentType }: StoredObject): Promise<void> {
    if (!IMAGE_KEY_PATTERN.test(key)) throw new Error(`invalid image key: ${key}`);
    await insertImage(this.db, key, { data, contentType });
  }

  async get(key: string): Promise<StoredObject | undefined> {
    if (!IMAGE_KEY_PATTERN.test(key)) return undefined;
    return (await findImage(this.db, key)) ?? this.earlierUploads?.get(key);
  }

  async delete(key: string): Promise<void> {
    await deleteImage(this.db, key);
    await this.earlierUploads?.delete(key);
  }

  url(key: string, baseUrl: string): string {
    return `${baseUrl}/images/${key}`;
  }
}
