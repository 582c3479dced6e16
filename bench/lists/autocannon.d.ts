// autocannon ships no types and @types/autocannon is not installed: load.ts reads its
// result as loosely typed JSON.
declare module "autocannon";
