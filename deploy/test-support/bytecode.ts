import assert from "node:assert/strict";

/**
 * Asserts two bytecodes are identical. On a mismatch it reports the lengths, the first differing
 * byte and both metadata tails instead of two 14 kB hex strings.
 */
export function assertSameBytecode(actual: string | undefined, expected: string, what: string) {
  if (actual === expected) return;
  const a = actual ?? "";
  let i = 0;
  while (i < a.length && i < expected.length && a[i] === expected[i]) i++;
  const tail = (code: string) => code.slice(-106);
  assert.fail(
    `${what}: bytecode differs from byte ${Math.floor((i - 2) / 2)}; ` +
      `lengths ${(a.length - 2) / 2} and ${(expected.length - 2) / 2} bytes.\n` +
      `  actual   tail ...${tail(a)}\n  expected tail ...${tail(expected)}\n` +
      "(A different metadata hash alone means the sources or settings changed between the two.)",
  );
}

/** Where solc left room for immutables in runtime code: byte offsets per immutable. */
export type ImmutableReferences = Record<string, { start: number; length: number }[]>;

/**
 * Runtime code as a deployment holds it: solc leaves zeros where immutables go and the
 * constructor writes their values there. Collectibles has one, the hook gas budget.
 */
export function withImmutables(runtime: string, references: ImmutableReferences, value: bigint) {
  let code = runtime.startsWith("0x") ? runtime.slice(2) : runtime;
  const word = value.toString(16).padStart(64, "0");
  for (const places of Object.values(references)) {
    for (const { start, length } of places) {
      code =
        code.slice(0, start * 2) + word.slice(64 - length * 2) + code.slice((start + length) * 2);
    }
  }
  return `0x${code}` as const;
}

/** The immutable references Hardhat keeps in an artifact (the artifact type leaves them out). */
export function immutableReferencesOf(artifact: object): ImmutableReferences {
  return (artifact as { immutableReferences?: ImmutableReferences }).immutableReferences ?? {};
}
