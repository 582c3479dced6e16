/** /claims: a user receives one token of a collectible, minted to the user's wallet. */
import { JSON_BODY, resourceEndpoints } from "../../http/resourceEndpoints.ts";
import { CLAIM_READ_ONLY, Claim, CreateClaimBody, ListClaimsQuery } from "../../schemas/claims.ts";

const claims = resourceEndpoints("Claim", "Claims", Claim);

export const listClaims = claims.list(ListClaimsQuery, "List claims visible to the key");

export const createClaim = claims.create({
  summary: "Claim one token of a collectible for a user",
  description:
    "Decides already-claimed and sold-out at once (409), stores the claim, and the relayer " +
    "mints it (claims arriving together share one batch transaction). Answers 201 once minted " +
    "and indexed, or 202 with the pending claim after CONFIRM_TIMEOUT_MS.",
  body: { ...JSON_BODY, schema: CreateClaimBody, readOnly: CLAIM_READ_ONLY },
  responses: claims.createdOnChain,
  errors: [404, 409, 422, 503],
});

export const getClaim = claims.get("Get a claim");
