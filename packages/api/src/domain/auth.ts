/** Who is asking: what a request may see, and the key it came with. */

/** What a request may see: everything (`null`) or one organization's subtree. */
export interface Scope {
  organizationId: string | null;
}

/** An authenticated request's key: its scope, its id, and whether it may write. */
export interface AuthContext extends Scope {
  keyId: string;
  /** A read-only key: every write was refused before reaching a handler. */
  readOnly: boolean;
}
