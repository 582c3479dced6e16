/** /collectibles: numbered editions with a fixed supply, made permanent on-chain. */
import { defineEndpoint } from "../../http/endpoint.ts";
import {
  COLLECTIBLE_READ_ONLY,
  Collectible,
  CreateCollectibleBody,
  ListCollectiblesQuery,
} from "../../schemas/collectibles.ts";
import { dataEnvelope, IdParams, listEnvelope } from "../../schemas/common.ts";

const tag = "Collectibles";
const Envelope = dataEnvelope(Collectible);

export const listCollectibles = defineEndpoint({
  operationId: "listCollectibles",
  method: "get",
  path: "/collectibles",
  tag,
  summary: "List collectibles visible to the key",
  auth: "apiKey",
  query: ListCollectiblesQuery,
  responses: {
    200: { description: "A page of collectibles, oldest first", schema: listEnvelope(Collectible) },
  },
});

export const createCollectible = defineEndpoint({
  operationId: "createCollectible",
  method: "post",
  path: "/collectibles",
  tag,
  summary: "Create a collectible on-chain",
  description:
    "Stored at once, then created on-chain by the relayer. Answers 201 once mined and " +
    "indexed, or 202 with the pending object after CONFIRM_TIMEOUT_MS (GET shows it turn " +
    "final). Send `Idempotency-Key` to make retries safe.",
  auth: "apiKey",
  body: {
    schema: CreateCollectibleBody,
    contentTypes: ["application/json"],
    // Room for a base64 cover beside the other fields.
    maxBytes: (config) => config.MAX_JSON_BYTES + 2 * config.MAX_IMAGE_BYTES,
    readOnly: COLLECTIBLE_READ_ONLY,
  },
  idempotent: true,
  responses: {
    201: { description: "Created and confirmed", schema: Envelope, headers: ["Location"] },
    202: { description: "Accepted, still pending", schema: Envelope, headers: ["Location"] },
  },
  errors: [404, 409, 503],
});

export const getCollectible = defineEndpoint({
  operationId: "getCollectible",
  method: "get",
  path: "/collectibles/{id}",
  tag,
  summary: "Get a collectible",
  auth: "apiKey",
  params: IdParams,
  responses: { 200: { description: "Found", schema: Envelope } },
  errors: [404],
});
