/**
 * Manages API keys from the command line:
 *
 *   pnpm --filter @collectibles/api keys create [--name NAME] [--organization ORG_ID] [--read-only]
 *   pnpm --filter @collectibles/api keys list
 *   pnpm --filter @collectibles/api keys revoke KEY_ID
 *
 * Uses the same configuration as the API (DATABASE_URL, or the embedded PostgreSQL of a running
 * `pnpm start`), beside a running API or not; POST /api-keys with an admin key does the same
 * (both go through services/apiKeys.ts). A created key is printed once and never again.
 */
import { parseArgs } from "node:util";
import { openConfiguredDatabase } from "../bootstrap.ts";
import type { Database } from "../db/driver/client.ts";
import { EnvError, parseEnv } from "../env.ts";
import { NotFoundError } from "../errors.ts";
import { createKey, listKeys, revokeKey } from "../services/apiKeys.ts";

const USAGE = `Usage:
  keys create [--name NAME] [--organization ORGANIZATION_ID] [--read-only]
  keys list
  keys revoke KEY_ID`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class UsageError extends Error {
  override name = "UsageError";
}

/** Runs one command; returns what to print. Separate from the process so tests can call it. */
export async function runKeysCommand(db: Database, argv: string[]): Promise<string> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      organization: { type: "string" },
      "read-only": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) return USAGE;

  switch (command) {
    case "create": {
      const organizationId = values.organization ?? null;
      if (organizationId && !UUID.test(organizationId)) {
        throw new UsageError("--organization must be a uuid");
      }
      const readOnly = values["read-only"] ?? false;
      const created = await createKey(db, {
        name: values.name ?? "created with the CLI",
        organizationId,
        readOnly,
      }).catch((error: unknown) => {
        if (error instanceof NotFoundError) {
          throw new UsageError(`No active organization ${organizationId}`);
        }
        throw error;
      });
      return [
        `Created ${readOnly ? "read-only " : ""}key ${created.id} (${created.name})` +
          `${organizationId ? ` scoped to ${organizationId}` : ""}.`,
        "It is shown only this once:",
        "",
        `  ${created.key}`,
        "",
      ].join("\n");
    }
    case "list": {
      const keys = await listKeys(db);
      if (keys.length === 0) return "No keys.";
      return keys
        .map(
          (k) =>
            `${k.id}  ${k.prefix}...  ${k.revoked_at ? "revoked " : "active  "}` +
            `${k.read_only ? "read-only  " : ""}` +
            `${k.organization_id ? `org ${k.organization_id}` : "all organizations"}  ` +
            `created ${k.created_at}  last used ${k.last_used_at ?? "never"}  ${k.name}`,
        )
        .join("\n");
    }
    case "revoke": {
      const [id] = rest;
      if (!id || !UUID.test(id)) throw new UsageError("revoke needs the key's id (see keys list)");
      const revoked = await revokeKey(db, id).catch((error: unknown) => {
        if (error instanceof NotFoundError) throw new UsageError(`No active key ${id}`);
        throw error;
      });
      return `Revoked key ${revoked.id} (${revoked.prefix}..., ${revoked.name}).`;
    }
    default:
      throw new UsageError(`Unknown command ${command}\n${USAGE}`);
  }
}

async function main(): Promise<void> {
  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const database = await openConfiguredDatabase(env);
  try {
    process.stdout.write(`${await runKeysCommand(database.db, process.argv.slice(2))}\n`);
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}
