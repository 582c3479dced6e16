/**
 * The conventional endpoints of a resource (list, get, create, update, delete), each still one
 * declaration, written with only what differs: the conventions (operation id, method, path, key,
 * id parameter, envelopes, answers) are filled in here once instead of in every route file.
 */
import type { z } from "zod";
import { DeletedResponse, dataEnvelope, IdParams, listEnvelope } from "../schemas/common.ts";
import { type BodySpec, defineEndpoint, type EndpointSpec } from "./endpoint.ts";

type Answers = EndpointSpec["responses"];

/** A JSON body of at most MAX_JSON_BYTES: what most writes take. */
export const JSON_BODY = {
  contentTypes: ["application/json"],
  maxBytes: (config) => config.MAX_JSON_BYTES,
} as const satisfies Omit<BodySpec, "schema">;

interface WriteOptions<B extends BodySpec> {
  summary: string;
  description?: string;
  body: B;
  errors: readonly number[];
}

/**
 * `Singular` and `Plural` name the operations (`getUser`, `listUsers`); `Plural` is also the
 * tag, and in lower case the path (`/users`).
 */
export function resourceEndpoints<const S extends z.ZodType>(
  Singular: string,
  Plural: string,
  schema: S,
) {
  const plural = Plural.toLowerCase();
  const tag = Plural;
  const collection = `/${plural}` as const;
  const item = `/${plural}/{id}` as const;
  const Envelope = dataEnvelope(schema);
  const base = { tag, auth: "apiKey" } as const;
  return {
    list: <const Q extends z.ZodObject>(query: Q, summary: string) =>
      defineEndpoint({
        ...base,
        operationId: `list${Plural}`,
        method: "get",
        path: collection,
        summary,
        query,
        responses: {
          200: { description: `A page of ${plural}, oldest first`, schema: listEnvelope(schema) },
        },
      }),

    get: (summary: string) =>
      defineEndpoint({
        ...base,
        operationId: `get${Singular}`,
        method: "get",
        path: item,
        summary,
        params: IdParams,
        responses: { 200: { description: "Found", schema: Envelope } },
        errors: [404],
      }),

    /** What a create answers: 201 with the object and its Location. */
    created: {
      201: { description: "Created", schema: Envelope, headers: ["Location"] },
    } as const satisfies Answers,
    /** What a create made final on-chain answers: 201 once confirmed, 202 while still pending. */
    createdOnChain: {
      201: { description: "Confirmed on-chain", schema: Envelope, headers: ["Location"] },
      202: { description: "Accepted, still pending", schema: Envelope, headers: ["Location"] },
    } as const satisfies Answers,

    create: <const B extends BodySpec, const R extends Answers>(
      options: WriteOptions<B> & { responses: R },
    ) =>
      defineEndpoint({
        ...base,
        ...options,
        operationId: `create${Singular}`,
        method: "post",
        path: collection,
        idempotent: true,
      }),

    update: <const B extends BodySpec>(options: WriteOptions<B>) =>
      defineEndpoint({
        ...base,
        ...options,
        operationId: `update${Singular}`,
        method: "patch",
        path: item,
        params: IdParams,
        responses: { 200: { description: "Updated", schema: Envelope } },
      }),

    remove: (summary: string, errors: readonly number[]) =>
      defineEndpoint({
        ...base,
        operationId: `delete${Singular}`,
        method: "delete",
        path: item,
        summary,
        params: IdParams,
        responses: { 200: { description: "Deactivated", schema: DeletedResponse } },
        errors,
      }),
  };
}
