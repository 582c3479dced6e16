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
