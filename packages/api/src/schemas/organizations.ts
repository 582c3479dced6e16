/** Organizations as answered and as accepted (validation, types and the OpenAPI document). */
import { listQuery, readOnly } from "./common.ts";
import {
  AddressFilter,
  BlockchainId,
  ExternalId,
  Name,
  RecordTimes,
  Uuid,
  WalletAddress,
} from "./fields.ts";
import { ImageFile, ImageInput, ImageUrls } from "./images.ts";
import { z } from "./zod.ts";

export const Organization = z
  .strictObject({
    id: Uuid,
    name: z.string(),
    description: z.string().nullable(),
    parent_id: Uuid.nullable(),
    external_id: z.string().nullable(),
    wallet_address: WalletAddress,
    claims_to_linked_wallet: z.boolean().openapi({
      description:
        "true: a new claim of a user with a linked wallet is minted to that wallet, not to the " +
        "wallet the service keeps for them",
    }),
    blockchain_id: BlockchainId,
    // A union rather than .nullable(): zod-to-openapi 9 drops the null of a nullable $ref.
    logo: z.union([ImageUrls, z.null()]),
    cover: z.union([ImageUrls, z.null()]),
    is_active: z.boolean(),
    ...RecordTimes,
  })
  .openapi("Organization");

const Description = z.string().max(5000);

/** A flag in JSON (a boolean) or in a multipart form (the text true or false). */
const Flag = z
  .preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean())
  .openapi({ type: "boolean" });
const ClaimsToLinkedWallet = Flag.optional().openapi({
  description: "New claims of users with a linked wallet go straight to it (default false)",
});

export const CreateOrganizationBody = z
  .strictObject({
    name: Name,
    description: Description.nullish(),
    parent_id: Uuid.nullish().openapi({
      description: "Required for a key scoped to an organization",
    }),
    external_id: ExternalId.nullish().openapi({
      description: "Your identifier; unique among the active children of one parent",
    }),
    claims_to_linked_wallet: ClaimsToLinkedWallet,
    logo: ImageInput.nullish(),
    cover: ImageInput.nullish(),
  })
  .openapi("CreateOrganization");

export const UpdateOrganizationBody = z
  .strictObject({
    name: Name.optional(),
    description: Description.nullish(),
    parent_id: Uuid.nullish().openapi({ description: "null moves it to the top level" }),
    external_id: ExternalId.nullish(),
    claims_to_linked_wallet: ClaimsToLinkedWallet,
    logo: ImageInput.nullish().openapi({ description: "null removes the image" }),
    cover: ImageInput.nullish().openapi({ description: "null removes the image" }),
  })
  .openapi("UpdateOrganization");

export const CreateOrganizationForm = z
  .strictObject({
    ...CreateOrganizationBody.shape,
    logo: ImageFile.optional(),
    cover: ImageFile.optional(),
  })
  .openapi("CreateOrganizationForm");

export const UpdateOrganizationForm = z
  .strictObject({
    ...UpdateOrganizationBody.shape,
    logo: ImageFile.optional(),
    cover: ImageFile.optional(),
  })
  .openapi("UpdateOrganizationForm");

export const ListOrganizationsQuery = listQuery({
  parent_id: [Uuid, "Only direct children of this organization"],
  external_id: [z.string().min(1), "Exact external_id"],
  wallet_address: [AddressFilter, "Wallet address, any letter case"],
});

export const ORGANIZATION_READ_ONLY = readOnly(["blockchain_id"], {
  wallet_address: "is assigned by the service and cannot be set",
  is_active: "cannot be set; DELETE deactivates",
});

export const ORGANIZATION_IMAGE_FIELDS = ["logo", "cover"] as const;
