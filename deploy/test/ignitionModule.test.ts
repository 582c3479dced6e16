import assert from "node:assert/strict";
import { describe, it } from "node:test";
import hre from "hardhat";
import CollectiblesModule, { REAL_CHAIN_ADMIN_DELAY } from "../ignition/modules/Collectibles.ts";

const DEFAULT_ADMIN_ROLE = `0x${"00".repeat(32)}` as const;

describe("Ignition module CollectiblesModule", () => {
  it("deploys with the deployer as admin and minter, a two-day admin delay and a 50,000 hook gas budget by default", async () => {
    const { ignition, viem } = await hre.network.create();
    const [deployer] = await viem.getWalletClients();
    assert.ok(deployer);
    const { collectibles } = await ignition.deploy(CollectiblesModule);
    const me = deployer.account.address;

    assert.equal((await collectibles.read.defaultAdmin()).toLowerCase(), me.toLowerCase());
    assert.equal(await collectibles.read.defaultAdminDelay(), Number(REAL_CHAIN_ADMIN_DELAY));
    assert.equal(REAL_CHAIN_ADMIN_DELAY, 172_800n);
    assert.equal(await collectibles.read.hookGasBudget(), 50_000n);
    const minterRole = await collectibles.read.MINTER_ROLE();
    assert.equal(await collectibles.read.hasRole([minterRole, me]), true);
    assert.equal(await collectibles.read.hasRole([DEFAULT_ADMIN_ROLE, me]), true);
  });

  it("takes admin, minter, adminDelay and hookGasBudget as parameters and gives the deployer no role", async () => {
    const { ignition, viem } = await hre.network.create();
    const [deployer, admin, minter] = await viem.getWalletClients();
    assert.ok(deployer && admin && minter);
    const { collectibles } = await ignition.deploy(CollectiblesModule, {
      parameters: {
        CollectiblesModule: {
          admin: admin.account.address,
          minter: minter.account.address,
          adminDelay: 0,
          hookGasBudget: 120_000,
        },
      },
    });
    const minterRole = await collectibles.read.MINTER_ROLE();

    assert.equal(
      (await collectibles.read.defaultAdmin()).toLowerCase(),
      admin.account.address.toLowerCase(),
    );
    assert.equal(await collectibles.read.defaultAdminDelay(), 0);
    assert.equal(await collectibles.read.hookGasBudget(), 120_000n);
    assert.equal(await collectibles.read.hasRole([minterRole, minter.account.address]), true);
    assert.equal(await collectibles.read.hasRole([minterRole, admin.account.address]), false);
    assert.equal(await collectibles.read.hasRole([minterRole, deployer.account.address]), false);
    assert.equal(
      await collectibles.read.hasRole([DEFAULT_ADMIN_ROLE, deployer.account.address]),
      false,
    );
  });
});
