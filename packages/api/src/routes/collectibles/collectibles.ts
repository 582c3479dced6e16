/** /collectibles: numbered editions with a fixed supply, made permanent on-chain. */
import { type Endpoint, implement } from "../../http/endpoint.ts";
import { creating, listing, reading, resourceEndpoints } from "../../http/resourceEndpoints.ts";
import { presentCollectible } from "../../presenters/resources.ts";
import {
  COLLECTIBLE_FORM_INTEGERS,
  COLLECTIBLE_READ_ONLY,
  Collectible,
  CreateCollectibleBody,
  CreateCollectibleForm,
  ListCollectiblesQuery,
} from "../../schemas/collectibles.ts";
import * as service from "../../services/collectibles.ts";

const collectibles = resourceEndpoints("Collectible", "Collectibles", Collectible);

export const collectibleEndpoints: readonly Endpoint[] = [
  implement(
    collectibles.create({
      summary: "Create a collectible on-chain",
      description:
        "Stored at once, then created on-chain by the relayer. Answers 201 once mined and " +
        "indexed, or 202 with the pending object after CONFIRM_TIMEOUT_MS (GET shows it turn " +
        "confirmed). Send `Idempotency-Key` to make retries safe.",
      body: {
        schema: CreateCollectibleBody,
        // The cover as a base64 data: URI in JSON, or as a file part in multipart/form-data.
        contentTypes: ["application/json", "multipart/form-data"],
        // Room for a base64 cover beside the other fields.
        maxBytes: (config) => config.MAX_JSON_BYTES + 2 * config.MAX_IMAGE_BYTES,
        files: ["cover"],
        formSchema: CreateCollectibleForm,
        formIntegers: COLLECTIBLE_FORM_INTEGERS,
        readOnly: COLLECTIBLE_READ_ONLY,
      },
      responses: collectibles.createdOnChain,
      errors: [404, 409, 503],
    }),
    creating(service, presentCollectible),
  ),

  implement(collectibles.get("Get a collectible"), reading(service.get, presentCollectible)),

  implement(
    collectibles.list(ListCollectiblesQuery, "List collectibles visible to the key"),
    listing(service.list, presentCollectible),
  ),
];
