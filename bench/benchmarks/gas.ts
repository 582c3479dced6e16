/**
 * Gas per claim, from the contracts package's own report (`pnpm --filter @collectibles/contracts
 * gas`, an in-process Hardhat chain), beside OpenZeppelin ERC1155/ERC721 mints in the same run.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { pnpmCommand, runCommand } from "../lib/proc.ts";
import type { Benchmark } from "../lib/result.ts";

interface GasReport {
  environment: Record<string, unknown>;
  gasUsed: Record<string, number>;
}

export const gasBenchmark: Benchmark = {
  id: "gas",
  title: "Gas per claim",
  async run(ctx) {
    const pnpm = pnpmCommand();
    ctx.log(
      "pnpm --filter @collectibles/contracts gas (compiles and measures on an in-process chain)",
    );
    await runCommand(pnpm.command, [...pnpm.args, "--filter", "@collectibles/contracts", "gas"], {
      cwd: ctx.root,
      timeoutMs: 5 * 60_000,
    }).done;
    const report = JSON.parse(
      readFileSync(path.join(ctx.root, "contracts/gas-report.json"), "utf8"),
    ) as GasReport;
    const g = (name: string): number => {
      const value = report.gasUsed[name];
      if (value === undefined) throw new Error(`contracts/gas-report.json has no gasUsed.${name}`);
      return value;
    };
    const claim = g("claim");
    const per100 = g("claimBatch100PerClaim");
    return {
      description:
        "Receipt gasUsed of Collectibles.claim (one token to a fresh address) and of claimBatch " +
        "(10 and 100 claims in one transaction, per claim), beside OpenZeppelin 5 ERC1155 `_mint` " +
        "of a new id and ERC721 `_mint` measured by the same script on the same chain.",
      rows: [
        {
          name: "one claim vs OZ ERC1155 new-id mint",
          unit: "gas",
          figure: claim,
          baseline: { name: "OZ ERC1155 mint", value: g("ozErc1155Mint") },
          goal: "<= 1.0x OZ ERC1155 mint",
          met: claim <= g("ozErc1155Mint"),
        },
        {
          name: "one claim vs OZ ERC721 mint",
          unit: "gas",
          figure: claim,
          baseline: { name: "OZ ERC721 mint", value: g("ozErc721Mint") },
        },
        {
          name: "per claim, batch of 10",
          unit: "gas",
          figure: g("claimBatch10PerClaim"),
          baseline: { name: "OZ ERC1155 mint, 10 in one tx", value: g("ozErc1155Batch10PerMint") },
        },
        {
          name: "per claim, batch of 100",
          unit: "gas",
          figure: per100,
          baseline: {
            name: "OZ ERC1155 mint, 100 in one tx",
            value: g("ozErc1155Batch100PerMint"),
          },
          // Gaslite's ERC-1155 airdrop, the best public figure, measured the same way.
          goal: "<= 28,890 gas (Gaslite)",
          met: per100 <= 28_890,
        },
      ],
      notes: [
        "Gas is deterministic: these figures do not depend on the machine's load.",
        "Breakdown and method: contracts/GAS.md (rewritten by this run).",
      ],
      raw: report,
    };
  },
};
