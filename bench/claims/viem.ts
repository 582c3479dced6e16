/** viem for the claims benchmark, as one module both the driver and its tests import. */
import * as viem from "viem";
import * as viemAccounts from "viem/accounts";

export { viem, viemAccounts };
