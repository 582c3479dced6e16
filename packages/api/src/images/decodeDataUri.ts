/**
 * Reads an image sent inside JSON as `data:<type>;base64,<bytes>`. Remote URLs are refused
 * rather than fetched, so the API never makes requests on a client's behalf (no SSRF).
 */
import { ValidationError } from "../errors.ts";
import { checkImageSize } from "./storeImage.ts";

const DATA_URI =
  /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[\w.+-]+)*);base64,([A-Za-z0-9+/\s]*={0,2})$/;

export function decodeDataUri(value: string, field: string, maxBytes: number): Buffer {
  if (!value.startsWith("data:")) {
    throw new ValidationError(`${field}: must be a data: URI; remote URLs are not fetched`, [
      { field, code: "invalid_data_uri", message: "must be data:<type>;base64,<bytes>" },
    ]);
  }
  const match = DATA_URI.exec(value);
  const payload = match?.[3]?.replace(/\s+/g, "");
  if (payload === undefined || payload.length % 4 !== 0 || payload.length === 0) {
    throw new ValidationError(`${field}: not a valid base64 data: URI`, [
      { field, code: "invalid_data_uri", message: "must be data:<type>;base64,<bytes>" },
    ]);
  }
  // Refuse before decoding: the decoded size is known from the base64 length.
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  checkImageSize((payload.length / 4) * 3 - padding, maxBytes, field);
  return Buffer.from(payload, "base64");
}
