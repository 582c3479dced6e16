/** /claims: a user receives one token of a collectible, minted to the user's wallet. */
import { defineEndpoint } from "../../http/endpoint.ts";
import { CLAIM_READ_ONLY, Claim, CreateClaimBody, ListClaimsQuery } from "../../schemas/claims.ts";
import { dataEnvelope, IdParams, listEnvelope } from "../../schemas/common.ts";

const tag = "Claims";
const Envelope = dataEnvelope(Claim);

export const listClaims = defineEndpoint({
  operationId: "listClaims",
  method: "get",
  path: "/claims",
  tag,
  summary: "List claims visible to the key",
  auth: "apiKey",
  query: ListClaimsQuery,
  responses: {
    200: { description: "A page of claims, oldest first", schema: listEnvelope(Claim) },
  },
});

export const createClaim = defineEndpoint({
  operationId: "createClaim",
  method: "post",
  path: "/claims",
  tag,
  summary: "Claim one token of a collectible for a user",
  description:
    "Decides already-claimed and sold-out at once (409), stores the claim, and the relayer " +
    "mints it (claims arriving together share one batch transaction). Answers 201 once minted " +
    "and indexed, or 202 with the pending claim after CONFIRM_TIMEOUT_MS.",
  auth: "apiKey",
  body: {
    schema: CreateClaimBody,
    contentTypes: ["application/json"],
    maxBytes: (config) => config.MAX_JSON_BYTES,
    readOnly: CLAIM_READ_ONLY,
  },
  idempotent: true,
  responses: {
    201: { description: "Minted and confirmed", schema: Envelope, headers: ["Location"] },
    202: { description: "Accepted, still pending", schema: Envelope, headers: ["Location"] },
  },
  errors: [404, 409, 422, 503],
});

export const getClaim = defineEndpoint({
  operationId: "getClaim",
  method: "get",
  path: "/claims/{id}",
  tag,
  summary: "Get a claim",
  auth: "apiKey",
  params: IdParams,
  responses: { 200: { description: "Found", schema: Envelope } },
  errors: [404],
});
