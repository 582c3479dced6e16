import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import {
  type Deployment,
  deploymentFile,
  deploymentsDir,
  getDeployment,
  writeDeployment,
} from "../src/index.ts";

const folder = mkdtempSync(path.join(tmpdir(), "deployments-"));
const dir = pathToFileURL(`${folder}/`);
after(() => rmSync(folder, { recursive: true, force: true }));

const sample: Deployment = {
  chainId: 100,
  contract: "Collectibles",
  address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  deployBlock: 41_234_567,
  deployTransaction: `0x${"ab".repeat(32)}`,
};

describe("deployments/<chainId>.json", () => {
  it("writeDeployment writes a file getDeployment reads back", () => {
    const file = writeDeployment(sample, dir);
    assert.equal(file.href, deploymentFile(100, dir).href);
    assert.deepEqual(getDeployment(100, dir), sample);
  });

  it("getDeployment names the missing file and the command that creates it", () => {
    assert.throws(
      () => getDeployment(31337, dir),
      (error: Error) => {
        assert.match(error.message, /No Collectibles deployment for chain 31337/);
        assert.ok(error.message.includes(path.join(folder, "31337.json")));
        assert.match(error.message, /pnpm deploy:local/);
        return true;
      },
    );
    assert.throws(() => getDeployment(5, dir), /No Collectibles deployment for chain 5.*README/);
  });

  it("getDeployment rejects a file that is not a deployment of that chain", () => {
    writeFileSync(new URL("7.json", dir), "{ not json");
    assert.throws(() => getDeployment(7, dir), /7\.json is not valid JSON/);
    writeFileSync(new URL("8.json", dir), JSON.stringify({ ...sample, chainId: 9 }));
    assert.throws(() => getDeployment(8, dir), /chainId is 9, expected 8/);
    writeFileSync(
      new URL("9.json", dir),
      JSON.stringify({ ...sample, chainId: 9, address: "0x12" }),
    );
    assert.throws(() => getDeployment(9, dir), /address is not a 20-byte hex address/);
  });

  it("writeDeployment refuses an incomplete deployment", () => {
    assert.throws(
      () => writeDeployment({ ...sample, deployBlock: -1 }, dir),
      /deployBlock is not a block number/,
    );
  });

  it("DEPLOYMENTS_DIR moves the folder every reader and writer uses", () => {
    const saved = process.env.DEPLOYMENTS_DIR;
    process.env.DEPLOYMENTS_DIR = `${folder}/`;
    try {
      assert.equal(deploymentsDir().href, dir.href);
      assert.deepEqual(getDeployment(100), sample);
    } finally {
      if (saved === undefined) delete process.env.DEPLOYMENTS_DIR;
      else process.env.DEPLOYMENTS_DIR = saved;
    }
    assert.ok(deploymentsDir().pathname.endsWith("/deploy/deployments/"));
  });
});
