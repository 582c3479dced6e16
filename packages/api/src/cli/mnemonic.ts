/**
 * `pnpm --filter @collectibles/api -s mnemonic`: prints a new BIP-39 mnemonic (24 English words)
 * for WALLET_MNEMONIC, which every API process of one deployment must share: every organization's
 * and user's wallet derives from it. Made once and kept; nothing else is written.
 */
import { english, generateMnemonic } from "viem/accounts";

console.log(generateMnemonic(english, 256));
