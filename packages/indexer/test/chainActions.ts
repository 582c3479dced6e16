/**
 * What the tests and the benchmark do on the chain: create collectibles, claim, transfer, reorg.
 * Transactions are signed here with the development accounts (account #0 is the minter).
 */
import { randomUUID } from "node:crypto";
import { collectiblesAbi, encodeClaimRuns, uuidToBytes16 } from "@collectibles/contracts";
import { DEV_MNEMONIC } from "@collectibles/devkit/chain";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hash,
  type Hex,
  http,
  keccak256,
  type TransactionReceipt,
  toHex,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";

const hardhatLocal = defineChain({
  id: 31337,
  name: "Hardhat",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
});

export interface Metadata {
  name: string;
  description: string;
  image: string;
  mimeType: string;
}

export interface ClaimRequest {
  collectibleId: string;
  claimId: string;
  to: Address;
}

export type ChainActions = ReturnType<typeof chainActions>;

export function chainActions(rpcUrl: string, contract: Address) {
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain: hardhatLocal, transport, pollingInterval: 50 });
  // The 20 funded accounts of `hardhat node`; tests give each scenario its own holders.
  const accounts = Array.from({ length: 20 }, (_, addressIndex) =>
    mnemonicToAccount(DEV_MNEMONIC, { addressIndex }),
  );
  const wallets = accounts.map((account) =>
    createWalletClient({ account, chain: hardhatLocal, transport }),
  );
  const minter = wallets[0];
  if (!minter) throw new Error("no minter account");

  async function confirmed(hash: Hash): Promise<TransactionReceipt> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }

  /** Account `fromIndex` calls the contract as a holder (a transfer); returns when mined. */
  async function sendAs(
    fromIndex: number,
    call: (from: Address) => { functionName: string; args: readonly unknown[] },
  ): Promise<TransactionReceipt> {
    const wallet = wallets[fromIndex];
    const from = accounts[fromIndex];
    if (!wallet || !from) throw new Error(`no account #${fromIndex}`);
    const hash = await wallet.writeContract({
      address: contract,
      abi: collectiblesAbi,
      ...call(from.address),
    } as never);
    return confirmed(hash);
  }

  async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    return (await publicClient.request({ method, params } as never)) as T;
  }

  return {
    publicClient,
    /** Addresses (lowercase) of development accounts #0 (the minter) to #19. */
    addresses: accounts.map((a) => a.address.toLowerCase() as Address),

    async createCollectible(opts: {
      id?: string;
      organizationId?: string;
      creatorId?: string | null;
      totalSupply: bigint;
      metadata?: Partial<Metadata>;
    }) {
      const id = opts.id ?? randomUUID();
      const organizationId = opts.organizationId ?? randomUUID();
      const creatorId = opts.creatorId === undefined ? randomUUID() : opts.creatorId;
      const metadata: Metadata = {
        name: "Edition",
        description: "A test collectible",
        image: "https://example.test/a.png",
        mimeType: "image/png",
        ...opts.metadata,
      };
      const hash = await minter.writeContract({
        address: contract,
        abi: collectiblesAbi,
        functionName: "createCollectible",
        args: [
          uuidToBytes16(id),
          uuidToBytes16(organizationId),
          creatorId ? uuidToBytes16(creatorId) : `0x${"0".repeat(32)}`,
          opts.totalSupply,
          metadata,
        ],
      });
      return { id, organizationId, creatorId, metadata, receipt: await confirmed(hash) };
    },

    async claim(collectibleId: string, to: Address, claimId: string = randomUUID()) {
      const hash = await minter.writeContract({
        address: contract,
        abi: collectiblesAbi,
        functionName: "claim",
        args: [uuidToBytes16(collectibleId), uuidToBytes16(claimId), to],
      });
      return { claimId, receipt: await confirmed(hash) };
    },

    /**
     * Sends one claimBatch transaction; returns when mined (or only the hash with `wait: false`).
     * `gas` skips the estimate: Hardhat refuses to estimate a batch whose receiver runs out of its
     * hook budget ("an internal call runs out of gas regardless of the transaction's gas limit").
     */
    async claimBatch(claims: readonly ClaimRequest[], opts: { wait?: boolean; gas?: bigint } = {}) {
      const hash = await minter.writeContract({
        gas: opts.gas,
        address: contract,
        abi: collectiblesAbi,
        functionName: "claimBatch",
        args: [
          encodeClaimRuns(
            claims.map((c) => ({
              collectibleId: uuidToBytes16(c.collectibleId),
              claimId: uuidToBytes16(c.claimId),
              to: c.to,
            })),
          ),
        ],
      });
      return opts.wait === false ? { hash } : { hash, receipt: await confirmed(hash) };
    },

    /** Deploys a contract (a test receiver) from the minter account; returns its address. */
    async deploy(artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[] = []) {
      const hash = await minter.deployContract({ ...artifact, args } as never);
      const receipt = await confirmed(hash);
      if (!receipt.contractAddress) throw new Error(`no contract created by ${hash}`);
      return receipt.contractAddress;
    },

    /** Account #0 (the default admin too) grants MINTER_ROLE to `account`. */
    async grantMinter(account: Address) {
      const hash = await minter.writeContract({
        address: contract,
        abi: collectiblesAbi,
        functionName: "grantRole",
        args: [keccak256(toHex("MINTER_ROLE")), account],
      });
      return confirmed(hash);
    },

    /** Any call from the minter account, e.g. arming a test receiver. */
    async send(address: Address, abi: Abi, functionName: string, args: readonly unknown[]) {
      const hash = await minter.writeContract({ address, abi, functionName, args } as never);
      return confirmed(hash);
    },

    confirmed,

    /** Account `fromIndex` sends `value` of one token to `to` (TransferSingle). */
    transfer: (fromIndex: number, to: Address, tokenId: bigint, value = 1n) =>
      sendAs(fromIndex, (from) => ({
        functionName: "safeTransferFrom",
        args: [from, to, tokenId, value, "0x"],
      })),

    /** Account `fromIndex` sends several tokens to `to` in one TransferBatch. */
    transferBatch: (fromIndex: number, to: Address, tokenIds: bigint[], values: bigint[]) =>
      sendAs(fromIndex, (from) => ({
        functionName: "safeBatchTransferFrom",
        args: [from, to, tokenIds, values, "0x"],
      })),

    blockNumber: () => publicClient.getBlockNumber({ cacheTime: 0 }),
    snapshot: () => rpc<string>("evm_snapshot"),
    revert: (id: string) => rpc<boolean>("evm_revert", [id]),
    /** Replaces the last `depth` blocks with empty ones of the same heights (anvil). */
    reorg: (depth: number) => rpc("anvil_reorg", [depth, []]),
    /** One block at a time: Ponder stalls on the gap `hardhat_mine` with a count leaves. */
    async mine(blocks = 1) {
      for (let i = 0; i < blocks; i++) await rpc("evm_mine");
    },
    setAutomine: (on: boolean) => rpc("evm_setAutomine", [on]),
  };
}
