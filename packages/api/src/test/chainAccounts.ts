/**
 * The local chain's development accounts for tests that act on the chain beside the API: a
 * wallet per account, deploying a test contract from one, and raw JSON-RPC calls (anvil's
 * evm_mine, anvil_setCode, …). Account #0 is the relayer; tests use #10 and above for their own
 * senders.
 */
import { DEV_MNEMONIC } from "@collectibles/devkit/chain";
import {
  type Abi,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";

export const localChain = defineChain({
  id: 31337,
  name: "Local",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
});

/** Development account `index` of the local chain's mnemonic. */
export const devAccount = (index: number) =>
  mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });

export type ChainAccounts = ReturnType<typeof chainAccounts>;

export function chainAccounts(rpcUrl: string) {
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 });
  const account = devAccount;
  const walletOf = (index: number) =>
    createWalletClient({ account: account(index), chain: localChain, transport: http(rpcUrl) });
  return {
    client,
    account,
    walletOf,
    rpc: (method: string, params: unknown[] = []) =>
      client.request({ method, params } as never) as Promise<unknown>,
    /** Deploys a contract from account `index`; returns its checksummed address. */
    async deployFrom(
      index: number,
      artifact: { abi: Abi | readonly unknown[]; bytecode: Hex },
      args: unknown[],
    ) {
      const hash = await walletOf(index).deployContract({ ...artifact, args } as never);
      const receipt = await client.waitForTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error("no contract deployed");
      return getAddress(receipt.contractAddress);
    },
  };
}
