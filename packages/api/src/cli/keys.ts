/**
 * Manages API keys from the command line:
 *
 *   pnpm --filter @collectibles/api keys create [--name NAME] [--organization ORG_ID]
 *   pnpm --filter @collectibles/api keys list
 *   pnpm --filter @collectibles/api keys revoke KEY_ID
 *
 * Uses the same configuration as the API (DATABASE_URL, or PGlite in the data folder; PGlite
 * allows one process, so stop the API first). A created key is printed once and never again.
 */
import { parseArgs } from "node:util";
import { openConfiguredDatabase } from "../bootstrap.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../db/apiKeys.ts";
import type { Database } from "../db/client.ts";
import { findOrganization } from "../db/organizations.ts";
import { EnvError, parseEnv } from "../env.ts";

const USAGE = `Usage:
  keys create [--name NAME] [--organization ORGANIZATION_ID]
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
      help: { type: "boolean", short: "h" },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) return USAGE;

  switch (command) {
    case "create": {
      const organizationId = values.organization ?? null;
      if (organizationId) {
        if (!UUID.test(organizationId)) throw new UsageError("--organization must be a uuid");
        const organization = await findOrganization(db, organizationId, { organizationId: null });
        if (!organization) throw new UsageError(`No active organization ${organizationId}`);
      }
      const { key, info } = await createApiKey(db, {
        name: values.name ?? "created with the CLI",
        organizationId,
      });
      return [
        `Created key ${info.id} (${info.name})${organizationId ? ` scoped to ${organizationId}` : ""}.`,
        "It is shown only this once:",
        "",
        `  ${key}`,
        "",
      ].join("\n");
    }
    case "list": {
      const keys = await listApiKeys(db);
      if (keys.length === 0) return "No keys.";
      return keys
        .map(
          (k) =>
            `${k.id}  ${k.prefix}...  ${k.revoked_at ? "revoked " : "active  "}` +
            `${k.organization_id ? `org ${k.organization_id}` : "all organizations"}  ` +
            `created ${k.created_at}  last used ${k.last_used_at ?? "never"}  ${k.name}`,
        )
        .join("\n");
    }
    case "revoke": {
      const [id] = rest;
      if (!id || !UUID.test(id)) throw new UsageError("revoke needs the key's id (see keys list)");
      const revoked = await revokeApiKey(db, id);
      if (!revoked) throw new UsageError(`No active key ${id}`);
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
