/** Linking a wallet the user owns (Sign-In with Ethereum) and moving tokens home to it. */
import { BlockchainId, RecordTimes, Timestamp, Uuid, WalletAddress } from "./fields.ts";
import { ChecksummedAddress } from "./users.ts";
import { z } from "./zod.ts";

export const CreateWalletLinkNonceBody = z
  .strictObject({
    address: ChecksummedAddress.openapi({
      description: "The address the user will prove they own (EIP-55)",
    }),
  })
  .openapi("CreateWalletLinkNonce");

export const WalletLinkNonce = z
  .strictObject({
    nonce: z.string(),
    address: WalletAddress,
    expires_at: Timestamp,
    message: z.string().openapi({
      description:
        "The EIP-4361 (Sign-In with Ethereum) message to sign with `address`, exactly as given",
    }),
  })
  .openapi("WalletLinkNonce");

/** A SIWE message is a few hundred bytes; a signature is 65 bytes, or more for ERC-6492. */
export const LinkWalletBody = z
  .strictObject({
    message: z.string().min(1).max(4_096).openapi({
      description: "The `message` of POST /users/{id}/wallet-link-nonces, unchanged",
    }),
    signature: z
      .string()
      .regex(/^0x([0-9a-fA-F]{2})+$/, "must be 0x-prefixed hex bytes")
      .max(20_000)
      .openapi({ description: "The signature of `message` by its address (EIP-191)" }),
  })
  .openapi("LinkWallet");

export const CreateTransfersHomeBody = z
  .strictObject({
    claim_id: Uuid.optional().openapi({
      description: "The one claim whose token moves; omitted: every token of the user",
    }),
  })
  .openapi("CreateTransfersHome");

export const TransferHome = z
  .strictObject({
    id: Uuid,
    user_id: Uuid,
    claim_id: Uuid,
    token_id: z.string().regex(/^0x[0-9a-f]+$/),
    blockchain_id: BlockchainId,
    from_address: WalletAddress.openapi({ description: "The user's service wallet" }),
    to_address: WalletAddress.openapi({ description: "The user's linked wallet" }),
    status: z.enum(["pending", "sent", "confirmed", "failed"]).openapi({
      description:
        "pending: stored; sent: its transaction is broadcast; confirmed: the token is at " +
        "to_address on-chain (a reorg that drops the transfer makes it pending again, and it " +
        "is sent again); failed: the chain refused it (failure_reason)",
    }),
    transaction_hash: z.string().nullable(),
    failure_reason: z.string().nullable(),
    ...RecordTimes,
  })
  .openapi("TransferHome");
