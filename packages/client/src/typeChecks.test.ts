/**
 * What the client's types promise a TypeScript program, checked by compiling programs against the
 * package by its own name (as a project that installed it imports it): a webhook event narrows
 * by `type`, and `listAll` takes only paths that answer a list.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageRoot = path.resolve(import.meta.dirname, "..");
const workDir = path.join(packageRoot, "test-results", "type-checks");

/** tsc's complaints about `program` (empty when it compiles). */
async function typeErrors(name: string, program: string): Promise<string> {
  fs.mkdirSync(workDir, { recursive: true });
  const file = path.join(workDir, `${name}.ts`);
  fs.writeFileSync(file, program);
  const project = path.join(workDir, `${name}.tsconfig.json`);
  fs.writeFileSync(
    project,
    JSON.stringify({ extends: "../../tsconfig.json", include: [`${name}.ts`] }),
  );
  const tsc = path.join(packageRoot, "node_modules", "typescript", "bin", "tsc");
  const checked = await run(process.execPath, [tsc, "--noEmit", "-p", project]).catch(
    (error: { stdout: string }) => ({ stdout: error.stdout }),
  );
  return checked.stdout;
}

describe("the client's types", () => {
  it("narrow a webhook event's data by its type: a claim's edition, a collectible's total", async () => {
    const errors = await typeErrors(
      "webhookEvent",
      `import type { WebhookEvent } from "@collectibles/client";

export function describeEvent(event: WebhookEvent): string {
  if (event.type === "claim.confirmed") return \`edition \${event.data?.edition}\`;
  if (event.type === "collectible.confirmed") return \`\${event.data?.total_count} made\`;
  if (event.type === "claim.failed") {
    // @ts-expect-error a claim has no total_count
    return String(event.data?.total_count);
  }
  return event.type;
}
`,
    );
    expect(errors).toBe("");
  });

  it("let listAll take only a path whose GET answers a list", async () => {
    const errors = await typeErrors(
      "listPath",
      `import type { ListPath } from "@collectibles/client";

export const claims: ListPath = "/claims";
// @ts-expect-error POST /claims/batch answers no list
export const batch: ListPath = "/claims/batch";
// @ts-expect-error GET /claims/{id} answers one claim
export const one: ListPath = "/claims/{id}";
`,
    );
    expect(errors).toBe("");
  });
});
