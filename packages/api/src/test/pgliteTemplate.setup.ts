/**
 * Starting PGlite from nothing takes ~5 s; loading a dump takes ~1 s. So the migrated database
 * is built once per run and every test file starts from a copy of it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { driverClientOf, openDatabase } from "../db/client.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "api-pglite-template-"));
  const file = path.join(dir, "template.tar");
  const handle = await openDatabase({ driver: "pglite" });
  const pglite = driverClientOf(handle.db) as PGlite;
  const dump = await pglite.dumpDataDir("none");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("pgliteTemplate", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
