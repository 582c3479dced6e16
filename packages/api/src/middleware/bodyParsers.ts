/**
 * Request bodies, checked before a handler reads them: the content-type check (a body in a type
 * the endpoint does not read answers 415), JSON, and multipart/form-data where files are accepted.
 */
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import multer from "multer";
import {
  type ApiError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "../errors.ts";

function hasBody(req: Request): boolean {
  const length = req.get("content-length");
  return req.get("transfer-encoding") !== undefined || (length !== undefined && length !== "0");
}

/** Rejects a body whose content type is not one of `types` (e.g. `application/json`). */
export function requireContentType(types: string[]): RequestHandler {
  return (req, _res, next) => {
    if (hasBody(req) && !req.is(types)) {
      const actual = req.get("content-type") ?? "none";
      throw new UnsupportedMediaTypeError(
        `Content-Type ${actual} is not accepted here; send ${types.join(" or ")}`,
      );
    }
    next();
  };
}

/**
 * Multipart with image files in the fields `fileFields`, each at most `maxFileBytes`, kept in
 * memory (the image pipeline reads them once); text fields land in `req.body`.
 */
export function multipartBody(fileFields: string[], maxFileBytes: number): RequestHandler {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: {
      fileSize: maxFileBytes,
      files: fileFields.length,
      fields: 20,
      fieldSize: 64 * 1024,
      parts: fileFields.length + 20,
    },
  }).fields(fileFields.map((name) => ({ name, maxCount: 1 })));

  return (req: Request, res: Response, next: NextFunction) => {
    upload(req, res, (error: unknown) => {
      if (!error) return next();
      next(translateMulterError(error, maxFileBytes));
    });
  };
}

function translateMulterError(error: unknown, maxFileBytes: number): Error {
  if (error instanceof multer.MulterError) {
    const field = error.field ?? "body";
    switch (error.code) {
      case "LIMIT_FILE_SIZE":
        return new PayloadTooLargeError(
          `${field}: file is larger than ${maxFileBytes} bytes`,
          [{ field, code: "image_too_large", message: `at most ${maxFileBytes} bytes` }],
          "image_too_large",
        );
      case "LIMIT_UNEXPECTED_FILE":
      case "LIMIT_FILE_COUNT":
        return new ValidationError(`${field}: unexpected file`, [
          { field, code: "unexpected_file", message: "files are accepted only as logo and cover" },
        ]);
      case "LIMIT_FIELD_VALUE":
      case "LIMIT_FIELD_COUNT":
      case "LIMIT_PART_COUNT":
        return new PayloadTooLargeError(`Multipart body too large: ${error.message}`);
      default:
        return new ValidationError(`Invalid multipart body: ${error.message}`, [
          { field, code: "invalid_multipart", message: error.message },
        ]);
    }
  }
  return new ValidationError("Invalid multipart body", [
    { field: "body", code: "invalid_multipart", message: "the multipart body could not be read" },
  ]);
}

/**
 * JSON bodies, refused cheaply when hostile, before anything else reads them: over the
 * size cap (413, before it is read whole), a Content-Encoding that does not decode (400), a
 * charset other than UTF-8 (415), bytes that are not UTF-8 (400), nesting deeper than
 * MAX_JSON_DEPTH (400), an object with a repeated key (400), or not JSON at all (400).
 *
 * The checks are one linear pass over the text, with an explicit stack: nothing recurses over
 * request data, and a body nested 5,000 deep is refused at level 33 in microseconds.
 */
export const MAX_JSON_DEPTH = 32;

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function jsonBody(limitBytes: number): RequestHandler {
  const readRaw = express.raw({ type: "application/json", limit: limitBytes, inflate: true });
  return (req, res, next) => {
    const charset = /;\s*charset=([^;\s]+)/i.exec(req.get("content-type") ?? "")?.[1];
    if (charset && !/^"?utf-?8"?$/i.test(charset)) {
      return next(new UnsupportedMediaTypeError(`charset ${charset} is not accepted; send UTF-8`));
    }
    readRaw(req, res, (error?: unknown) => {
      if (error) return next(readError(error));
      if (!Buffer.isBuffer(req.body)) return next();
      try {
        req.body = parseJson(req.body);
        next();
      } catch (refusal) {
        next(refusal);
      }
    });
  };
}

/** The body as JSON, or the refusal that says what is wrong with it. */
export function parseJson(bytes: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalid("invalid_utf8", "is not valid UTF-8");
  }
  checkStructure(text);
  try {
    return JSON.parse(text);
  } catch {
    throw invalid("invalid_json", "is not valid JSON");
  }
}

function invalid(code: string, message: string): ValidationError {
  return new ValidationError(`Request body ${message}`, [{ field: "body", code, message }]);
}

/**
 * Depth and repeated keys, in one pass. Only structure is tracked: whether the text is JSON at
 * all is JSON.parse's to say afterwards, so this pass need not be a full parser, only never
 * slower than linear on any input.
 */
function checkStructure(text: string): void {
  const frames: { keys: Set<string> | null; expectKey: boolean }[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      const end = closingQuote(text, i);
      const frame = frames[frames.length - 1];
      if (frame?.keys && frame.expectKey) {
        const key = keyText(text, i, end);
        if (frame.keys.has(key)) {
          throw invalid("duplicate_key", `repeats the key "${key.slice(0, 100)}" in one object`);
        }
        frame.keys.add(key);
        frame.expectKey = false;
      }
      i = end + 1;
      continue;
    }
    if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      if (frames.length >= MAX_JSON_DEPTH) {
        throw invalid("too_deep", `is nested deeper than ${MAX_JSON_DEPTH} levels`);
      }
      frames.push({ keys: char === 0x7b ? new Set() : null, expectKey: char === 0x7b });
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      frames.pop();
    } else if (char === 0x2c /* , */) {
      const frame = frames[frames.length - 1];
      if (frame?.keys) frame.expectKey = true;
    }
    i += 1;
  }
}

/** Where the string opened at `start` closes: the next quote not escaped by a backslash. */
function closingQuote(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let k = quote - 1; k > start && text.charCodeAt(k) === 0x5c; k--) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** A key as JSON reads it: `"a"` and `"\u0061"` are the same key. */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return raw; // Not a valid string: JSON.parse of the whole body says so.
  }
}

/** Errors of reading the raw body, as the refusals a client understands. */
function readError(error: unknown): ApiError | unknown {
  const { type, limit } = (error ?? {}) as { type?: string; limit?: number };
  switch (type) {
    case "entity.too.large":
      return new PayloadTooLargeError(`Request body is larger than ${limit} bytes`);
    case "encoding.unsupported":
    case "charset.unsupported":
      return new UnsupportedMediaTypeError("Unsupported body charset or content encoding");
    case "request.aborted":
    case "request.size.invalid":
      return invalid("incomplete", "was incomplete");
    default:
      // A Content-Encoding that does not decode (corrupt gzip, deflate or br).
      if ((error as { status?: number }).status === 400) {
        return invalid("invalid_encoding", "does not decode with its Content-Encoding");
      }
      return error;
  }
}
