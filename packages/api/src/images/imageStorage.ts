/**
 * Where image bytes live. The local folder is the default; another backend (S3, a CDN) only has
 * to implement this interface and answer public URLs.
 */
import fs from "node:fs/promises";
import path from "node:path";

export interface StoredObject {
  data: Buffer;
  contentType: string;
}

export interface ImageStorage {
  put(key: string, object: StoredObject): Promise<void>;
  /** Undefined when absent. Only storages the API serves itself need to answer this. */
  get(key: string): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /** The public URL of `key`; `baseUrl` is where this API is reached. */
  url(key: string, baseUrl: string): string;
}

/** Keys look like `<uuid>/<variant>.<ext>`: nothing else can reach the file system. */
export const IMAGE_KEY_PATTERN =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/(original|large|medium|small|thumb)\.(png|jpg|webp|gif)$/;

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

export function contentTypeOfKey(key: string): string | undefined {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)];
}

/** Files under one folder, served by the API at `/images/<key>`. */
export class LocalImageStorage implements ImageStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private pathOf(key: string): string {
    if (!IMAGE_KEY_PATTERN.test(key)) throw new Error(`invalid image key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, { data }: StoredObject): Promise<void> {
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, data);
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const contentType = contentTypeOfKey(key);
    if (!IMAGE_KEY_PATTERN.test(key) || !contentType) return undefined;
    try {
      return { data: await fs.readFile(this.pathOf(key)), contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    await fs.rm(file, { force: true });
    await fs.rmdir(path.dirname(file)).catch(() => {});
  }

  url(key: string, baseUrl: string): string {
    return `${baseUrl}/images/${key}`;
  }
}
