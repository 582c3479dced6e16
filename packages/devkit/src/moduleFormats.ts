/**
 * Loaded with `node --import` (`KNOWN_MODULE_FORMATS` in processes.ts) before a Node process
 * loads anything else: tells Node that a dependency's `.js` file imported by a relative path is
 * an ES module when its package says `"type": "module"`, reading each package.json once.
 *
 * Node's own resolver works the format out again for every file, and (Node 22 to 26) hands back
 * the nearest package.json anew each time, its `exports` included: drizzle-orm's is 175 KB, and
 * the API loads some 880 of its files (its own copy and @ponder/client's). That was 1.1 s of the
 * API's 2.3 s of imports in a CPU profile; Ponder's own imports take 0.6 s less with it. Anything
 * else (bare names, other extensions, the repository's own files, a file that is not there, a
 * linked file) is left to Node, errors included.
 */
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const moduleScopes = new Map<string, boolean>();
const realFolders = new Map<string, string>();

/** The folder's real path (links resolved), as Node names a module's URL. */
function realFolder(folder: string): string {
  let real = realFolders.get(folder);
  if (real === undefined) {
    real = realpathSync.native(folder);
    realFolders.set(folder, real);
  }
  return real;
}

/** The folder's package.json, or undefined if it has none. */
function manifestIn(folder: string): { type?: string } | undefined {
  try {
    return JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Whether the package.json nearest to `folder` says `"type": "module"`: Node's rule for a `.js`
 * file, which also stops at a `node_modules` folder.
 */
function inModuleScope(folder: string): boolean {
  let answer = moduleScopes.get(folder);
  if (answer === undefined) {
    const parent = path.dirname(folder);
    const stop = path.basename(folder) === "node_modules";
    const manifest = stop ? undefined : manifestIn(folder);
    answer = manifest
      ? manifest.type === "module"
      : !stop && parent !== folder && inModuleScope(parent);
    moduleScopes.set(folder, answer);
  }
  return answer;
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (
      parent?.startsWith("file:") &&
      parent.includes("/node_modules/") &&
      /^\.\.?\/.*\.js$/.test(specifier)
    ) {
      try {
        const asked = fileURLToPath(new URL(specifier, parent));
        // A link is left to Node; a plain file's real path is its folder's, one lookup a folder.
        if (lstatSync(asked).isFile()) {
          const folder = realFolder(path.dirname(asked));
          if (inModuleScope(folder)) {
            const url = pathToFileURL(path.join(folder, path.basename(asked))).href;
            return { url, format: "module", shortCircuit: true };
          }
        }
      } catch {
        // Node's resolver says what is wrong (a missing file, a folder, an unreadable package.json).
      }
    }
    return nextResolve(specifier, context);
  },
});
