import type { SolidityHooks } from "hardhat/types/hooks";
import type { CompilerOutput, CompilerOutputError } from "hardhat/types/solidity";

/** Marks a promoted warning, so a reader of the build output knows why it stopped the build. */
export const PROMOTED_PREFIX = "Error (compiler warnings are errors in this project)";

/**
 * Solidity test contracts are never deployed to a real chain (the test runner lifts the size
 * limit), so the two size warnings solc raises for big test contracts stay warnings there, as
 * Hardhat itself treats them. Codes from solc's error list: 5574 code size, 3860 initcode size.
 */
const SIZE_WARNINGS = new Set(["5574", "3860"]);

function isTestSource(file: string | undefined): boolean {
  return file !== undefined && (file.startsWith("project/test/") || file.endsWith(".t.sol"));
}

function isAllowed(error: CompilerOutputError): boolean {
  const { sourceLocation } = error as CompilerOutputError & { sourceLocation?: { file?: string } };
  return SIZE_WARNINGS.has(error.errorCode ?? "") && isTestSource(sourceLocation?.file);
}

/**
 * Returns the compiler output with every other warning turned into an error. Hardhat counts an entry as
 * fatal when its severity is "error" and its type is not "Warning", so both change; the original
 * message stays in full under a prefix that says why it is fatal.
 */
export function promoteWarnings(output: CompilerOutput): CompilerOutput {
  const isPromoted = (error: CompilerOutputError) =>
    error.severity === "warning" && !isAllowed(error);
  if (output.errors === undefined || !output.errors.some(isPromoted)) {
    return output;
  }
  const errors = output.errors.map(
    (error): CompilerOutputError =>
      !isPromoted(error)
        ? error
        : {
            ...error,
            severity: "error",
            type: "WarningAsError",
            formattedMessage: `${PROMOTED_PREFIX}: ${error.formattedMessage ?? error.message}`,
          },
  );
  return { ...output, errors };
}

export default async (): Promise<Partial<SolidityHooks>> => ({
  // `invokeSolc` is the only hook that can still change whether a compilation job succeeded;
  // `getCompilationJobErrors` (its suggested successor) can only change what is printed.
  invokeSolc: async (context, compiler, solcInput, solcConfig, next) => {
    const output = await next(context, compiler, solcInput, solcConfig);
    // `--coverage` compiles instrumented copies of the sources, which are bigger and never shipped
    // (Hardhat itself hides their size warnings); the normal build keeps every warning fatal.
    return context.globalOptions.coverage ? output : promoteWarnings(output);
  },
});
