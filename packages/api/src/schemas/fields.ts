/** The fields records share: ids, names, times, addresses. */
import { getAddress } from "viem";
import { z } from "./zod.ts";

export const Uuid = z
  .uuid()
  .openapi({ format: "uuid", example: "5b0e6a4e-8d5c-4f55-9d7b-7d0d0d3e6a11" });

/** A name a client gives: trimmed, 1 to 200 characters. */
export const Name = z.string().trim().min(1, "must not be empty").max(200);
/** The client's own identifier for a record: trimmed, 1 to 200 characters. */
export const ExternalId = z.string().trim().min(1, "must not be empty").max(200);

export const Timestamp = z.iso
  .datetime({ precision: 3 })
  .openapi({ example: "2026-11-23T08:00:00.000Z", description: "ISO 8601, UTC, milliseconds" });

export const WalletAddress = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .openapi({ example: "0x5B38Da6a701c568545dCfcB03FcB875f56beddC4", description: "EIP-55" });

/** An address asked for in any letter case, as addresses are stored: checksummed (EIP-55). */
export const AddressFilter = WalletAddress.transform((address) =>
  getAddress(address.toLowerCase()),
);

export const BlockchainId = z
  .string()
  .regex(/^0x[0-9a-f]+$/)
  .openapi({ example: "0x7a69", description: "The chain id in hex (0x7a69 = 31337)" });

/** The years PostgreSQL's timestamps and JavaScript's dates agree on (PostgreSQL has no year 0). */
export function isStorableTime(time: Date): boolean {
  const year = time.getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** A time a client sends: ISO 8601 with its offset, in years 1 to 9999. */
export const SentTime = z.iso
  .datetime({ offset: true })
  .refine((value) => isStorableTime(new Date(value)), "must be a time in the years 1 to 9999");

/** When a record was created and last changed. */
export const RecordTimes = { created_at: Timestamp, updated_at: Timestamp };
