/** Users as answered and as accepted (validation, types and the OpenAPI document). */
import { getAddress } from "viem";
import { listQuery, readOnly } from "./common.ts";
import {
  AddressFilter,
  BlockchainId,
  ExternalId,
  Name,
  RecordTimes,
  Timestamp,
  Uuid,
  WalletAddress,
} from "./fields.ts";
import { z } from "./zod.ts";

export const User = z
  .strictObject({
    id: Uuid,
    organization_id: Uuid,
    email: z.email(),
    name: z.string().nullable(),
    external_id: z.string().nullable(),
    wallet_address: WalletAddress,
    linked_wallet: WalletAddress.nullable().openapi({
      description:
        "An address the user proved they own (POST /users/{id}/wallet-link); tokens move " +
        "there with POST /users/{id}/transfers-home. Null until linked",
    }),
    linked_at: Timestamp.nullable(),
    blockchain_id: BlockchainId,
    claimed_count: z.number().int().min(0),
    is_active: z.boolean(),
    ...RecordTimes,
  })
  .openapi("User");

export const Email = z.string().trim().max(320).pipe(z.email("must be a valid email address"));

/** An address in its EIP-55 checksummed form; any other spelling is refused, not corrected. */
/** Addresses up to here are the zero address and the chains' precompiles, present and future. */
const RESERVED_ADDRESSES_BELOW = 0xffffn;
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const ChecksummedAddress = z
  .string()
  .regex(HEX_ADDRESS, "must be a 0x-prefixed 20-byte hex address")
  .refine((value) => {
    try {
      return getAddress(value) === value;
    } catch {
      return false;
    }
  }, "must be EIP-55 checksummed")
  // The zero address and the precompiles (0x01–0x11, 0x100, …) can hold no token: the contract
  // refuses a mint to them, and with it the whole batch the claim is sent in.
  .refine(
    // (Only for a well-formed address: a malformed one is already refused above.)
    (value) => !HEX_ADDRESS.test(value) || BigInt(value) > RESERVED_ADDRESSES_BELOW,
    "must not be the zero address or a precompile (an address below 0x10000)",
  )
  .openapi({ example: "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4" });

export const CreateUserBody = z
  .strictObject({
    organization_id: Uuid,
    email: Email,
    name: Name.nullish(),
    external_id: ExternalId.nullish().openapi({
      description: "Your identifier; unique among the organization's active users",
    }),
    wallet_address: ChecksummedAddress.nullish().openapi({
      description:
        "The user's own address; omitted: the service derives one. No other active user of " +
        "the organization may have it, as wallet_address or linked wallet (409)",
    }),
  })
  .openapi("CreateUser");

export const UpdateUserBody = z
  .strictObject({
    email: Email.optional(),
    name: Name.nullish(),
    external_id: ExternalId.nullish(),
  })
  .openapi("UpdateUser");

export const ListUsersQuery = listQuery({
  organization_id: [Uuid, "Users of this organization"],
  external_id: [z.string().min(1), "Exact external_id"],
  email: [z.string().min(1), "Email, case-insensitive"],
  wallet_address: [AddressFilter, "Wallet address, any letter case"],
});

export const USER_READ_ONLY_ON_CREATE = readOnly(["blockchain_id"], {
  linked_wallet: "is set by proving the address: POST /users/{id}/wallet-link",
  linked_at: "is set by POST /users/{id}/wallet-link",
  claimed_count: "is counted from claims",
  is_active: "cannot be set; DELETE deactivates",
});

export const USER_READ_ONLY_ON_UPDATE = {
  ...USER_READ_ONLY_ON_CREATE,
  organization_id: "cannot be changed after creation",
  wallet_address: "cannot be changed after creation",
};
