/**
 * Request bodies besides JSON (`jsonBody.ts`): the content-type check (a body in a type the
 * endpoint does not read answers 415) and multipart/form-data where files are accepted.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import multer from "multer";
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from "../errors.ts";

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
