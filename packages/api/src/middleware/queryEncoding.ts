/**
 * A query string that is not valid percent-encoded UTF-8 (`?page=%E0%A4%A`) is refused with 400,
 * as a path is: Express's parser would otherwise keep the undecodable text as the value and
 * answer as if it were meant.
 */
import type { RequestHandler } from "express";
import { ValidationError } from "../errors.ts";

export const refuseMalformedQuery: RequestHandler = (req, _res, next) => {
  const at = req.originalUrl.indexOf("?");
  if (at < 0) return next();
  for (const part of req.originalUrl.slice(at + 1).split("&")) {
    try {
      decodeURIComponent(part.replaceAll("+", " "));
    } catch {
      throw new ValidationError("The query string is not valid percent-encoded UTF-8", [
        { field: "query", code: "invalid_query", message: "malformed percent-encoding" },
      ]);
    }
  }
  next();
};
