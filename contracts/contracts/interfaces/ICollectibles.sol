// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IERC1155MetadataURI} from "@openzeppelin/contracts/token/ERC1155/extensions/IERC1155MetadataURI.sol";

/**
 * @title Collectibles
 * @notice Numbered editions with a fixed supply. Each claim mints exactly one token, with its own
 * token id, to the holder's address. Ids are chosen off-chain (UUIDs as `bytes16`) and carried
 * on-chain, so the service can match every chain record to its own.
 *
 * @dev A claim's token id is `uint256(collectibleId) << 128 | uint256(claimId)`: it names both
 * off-chain ids, so the standard `TransferSingle(operator, address(0), to, tokenId, 1)` emitted for
 * the mint is the "claimed" event; no second event is paid for on every claim. A token id can be
 * minted once only, which makes a retried claim a no-op or a revert instead of a second token, and
 * token ids of different collectibles can never collide.
 *
 * Editions are numbered per mint: a token's edition is one more than the number of tokens of its
 * collectible minted before it, counted in the order of their mint events (`TransferSingle` from
 * the zero address) in the chain's log order. A mint that is undone (a refused receiver) takes its
 * event and its number with it. So anyone who counts a collectible's mint events in log order gets
 * exactly `editionOf` and the `#<edition>` of `uri()`, whatever receiver hooks do in between
 * (including a hook that claims again); the indexer relies on this instead of paying for an
 * edition in every event or reading `editionOf` per mint.
 *
 * Receiver hooks get a fixed gas budget (`hookGasBudget()`, set at deployment). In `claimBatch` a
 * contract receiver that refuses or exceeds it loses only its own claim (`ClaimSkipped`); plain
 * accounts never pay for that isolation.
 */
interface ICollectibles is IERC1155MetadataURI, IERC1155Errors {
    /// @notice Immutable description of a collectible, fixed when it is created.
    /// @param name Display name; a token's metadata name is `<name> #<edition>`.
    /// @param description Free text shown by wallets and explorers.
    /// @param image URL of the artwork.
    /// @param mimeType MIME type of the artwork (e.g. `image/png`, `video/mp4`).
    struct Metadata {
        string name;
        string description;
        string image;
        string mimeType;
    }

    /// @notice The claims of one collectible in a batch, packed to keep calldata small.
    /// @param collectibleId Off-chain id of the collectible every claim of the run mints from.
    /// @param claims One 36-byte record per claim, back to back: `bytes16 claimId` then
    /// `address to` (20 bytes), i.e. `abi.encodePacked(claimId, to)`; minted in this order.
    struct ClaimRun {
        bytes16 collectibleId;
        bytes claims;
    }

    /// @notice Why `claimBatch` skipped a claim instead of minting it.
    /// @dev `ReceiverRefused`: the receiver contract (or EIP-7702 delegated account) reverted in
    /// `onERC1155Received`, answered another value or has no such function. `ReceiverGasExceeded`:
    /// its hook used up `hookGasBudget()`. Neither is minted or counted, so the claim id can be
    /// claimed again. `AlreadyMinted`: the claim id was minted before (a resent claim; the token
    /// exists). `SoldOut`: no edition was left when the claim's turn came.
    enum SkipReason {
        ReceiverRefused,
        ReceiverGasExceeded,
        AlreadyMinted,
        SoldOut
    }

    /// @notice Everything known about a collectible.
    struct CollectibleInfo {
        bytes16 organizationId;
        bytes16 creatorId;
        uint64 totalSupply;
        uint64 claimed;
        Metadata metadata;
    }

    /// @notice A collectible was created; its supply and metadata can never change afterwards.
    /// @param id Off-chain id of the collectible.
    /// @param organizationId Off-chain id of the organization that owns it.
    /// @param creatorId Off-chain id of the user who created it (zero when none).
    /// @param totalSupply Number of tokens that can ever be claimed.
    /// @param metadata Immutable name, description, artwork URL and MIME type.
    event CollectibleCreated(
        bytes16 indexed id, bytes16 indexed organizationId, bytes16 indexed creatorId, uint64 totalSupply, Metadata metadata
    );

    /// @notice A claim of a batch was not minted; the batch's other claims were.
    /// @param collectibleId The collectible.
    /// @param claimId The claim that was skipped.
    /// @param to The receiver it was meant for.
    /// @param reason Why; only `AlreadyMinted` means a token for the claim exists.
    event ClaimSkipped(bytes16 indexed collectibleId, bytes16 indexed claimId, address indexed to, SkipReason reason);

    /// @notice The collectible id is zero.
    error InvalidCollectibleId();

    /// @notice The claim id is zero.
    /// @param collectibleId Collectible the claim was for.
    error InvalidClaimId(bytes16 collectibleId);

    /// @notice A collectible with this id already exists.
    /// @param id The id that is taken.
    error CollectibleAlreadyExists(bytes16 id);

    /// @notice The total supply is zero.
    /// @param id The collectible that was being created.
    error InvalidTotalSupply(bytes16 id);

    /// @notice The metadata has an empty name.
    /// @param id The collectible that was being created.
    error EmptyName(bytes16 id);

    /// @notice No collectible has this id.
    /// @param id The id that was asked for.
    error UnknownCollectible(bytes16 id);

    /// @notice Every token of the collectible has been claimed.
    /// @param id The collectible.
    /// @param totalSupply Its fixed total.
    error CollectibleSoldOut(bytes16 id, uint64 totalSupply);

    /// @notice This claim was already minted (a retried or duplicated claim).
    /// @param collectibleId The collectible.
    /// @param claimId The claim id seen before.
    error ClaimAlreadyMinted(bytes16 collectibleId, bytes16 claimId);

    /// @notice A batch with no claims.
    error EmptyBatch();

    /// @notice A run's packed claims are empty or not a whole number of 36-byte records.
    /// @param collectibleId The run's collectible.
    /// @param length The length of its `claims` bytes.
    error MalformedClaimRun(bytes16 collectibleId, uint256 length);

    /// @notice A receiver's `onERC1155Received` used up its whole gas budget.
    /// @param receiver The receiver.
    /// @param gasBudget The budget it was given, `hookGasBudget()`.
    error ReceiverGasExceeded(address receiver, uint256 gasBudget);

    /// @notice The transaction has too little gas left to give a receiver hook its full budget.
    /// @dev Raised instead of calling the hook with less (the 63/64 rule would otherwise let a low
    /// gas limit make an accepting receiver look like one that exceeded its budget); the whole
    /// transaction reverts, so nothing is skipped for the sender's mistake.
    /// @param needed Gas needed at that point.
    /// @param left Gas that was left.
    error InsufficientGasForHook(uint256 needed, uint256 left);

    /// @notice The hook gas budget given at deployment is outside the accepted range.
    /// @param budget The budget given.
    /// @param min The smallest accepted budget.
    /// @param max The largest accepted budget.
    error InvalidHookGasBudget(uint256 budget, uint256 min, uint256 max);

    /// @notice `mintIsolated` was called by someone other than the contract itself.
    /// @param caller The caller.
    error CallerNotSelf(address caller);

    /// @notice No token with this id has been minted.
    /// @param tokenId The id that was asked for.
    error TokenDoesNotExist(uint256 tokenId);

    /// @notice Creates a collectible. Only a minter can call it.
    /// @param id Off-chain id of the collectible (non-zero, unused).
    /// @param organizationId Off-chain id of the owning organization.
    /// @param creatorId Off-chain id of the creating user (zero when none).
    /// @param totalSupply Number of tokens that can ever be claimed (non-zero).
    /// @param metadata Name (non-empty), description, artwork URL and MIME type; never changes.
    function createCollectible(
        bytes16 id,
        bytes16 organizationId,
        bytes16 creatorId,
        uint64 totalSupply,
        Metadata calldata metadata
    ) external;

    /// @notice Mints one token of a collectible to `to`, or reverts. Only a minter can call it.
    /// @dev The standard, all-or-nothing path, as OpenZeppelin's ERC1155 mints: reverts with
    /// `UnknownCollectible`, `ERC1155InvalidReceiver(0)`, `InvalidClaimId`, `ClaimAlreadyMinted`
    /// (so a resent transaction never mints twice) or `CollectibleSoldOut`, checked in that order.
    /// A contract receiver's hook gets `hookGasBudget()` gas: when it reverts, its revert data is
    /// passed on if it is at most 1,024 bytes long (`ERC1155InvalidReceiver(to)` when it has none
    /// or more, or answers another value; so a refusal costs the caller at most the hook's budget
    /// and a 1 kB copy, however much data the hook reverts with), and when it uses up its budget
    /// the claim reverts with `ReceiverGasExceeded`. One claim alone
    /// has nothing to isolate, and a revert is what a caller of a single mint expects; the
    /// service's relayer sends every claim through `claimBatch`, even one.
    /// @param collectibleId The collectible to mint from.
    /// @param claimId Off-chain id of the claim.
    /// @param to Receiver of the token; a contract must accept ERC-1155 tokens.
    /// @return tokenId The new token's id, `tokenIdOf(collectibleId, claimId)`.
    function claim(bytes16 collectibleId, bytes16 claimId, address to) external returns (uint256 tokenId);

    /// @notice Mints the claims of one or more runs in one transaction; a claim that cannot be
    /// minted for reasons of its own is skipped (`ClaimSkipped`) and the others still mint.
    /// Only a minter can call it.
    /// @dev Reverts as a whole only for what the sender controls: `EmptyBatch`,
    /// `MalformedClaimRun`, `UnknownCollectible`, `InvalidClaimId`, `ERC1155InvalidReceiver(0)`,
    /// and `InsufficientGasForHook` when the gas limit cannot give a hook its full budget.
    /// Per claim, in order: a claim id already minted is skipped (`AlreadyMinted`), a claim with no
    /// edition left is skipped (`SoldOut`), a receiver without code (a plain account) is minted at
    /// once, and a receiver with code (a contract, or an EIP-7702 delegated account, whose code is
    /// the delegation designator) is minted in a self-call (`mintIsolated`): if its hook refuses or
    /// exceeds `hookGasBudget()`, the self-call reverts, which removes the token, its
    /// `TransferSingle`, its edition and anything the hook did, and the claim is skipped
    /// (`ReceiverRefused` / `ReceiverGasExceeded`). Nothing is ever left with a receiver that
    /// refused it. Editions are numbered as the tokens are minted (see the interface notes).
    /// @param runs Runs of claims, each of one collectible; minted in order.
    function claimBatch(ClaimRun[] calldata runs) external;

    /// @notice Mints one claim to a contract receiver and calls its hook, reverting everything
    /// when the hook refuses (`ERC1155InvalidReceiver(to)`) or exceeds its budget
    /// (`ReceiverGasExceeded`). Only the contract itself may call it, from `claimBatch`, which
    /// has already checked the claim; it exists so that a refusal can be undone on its own.
    /// @param operator The minter that called `claimBatch`, named in `TransferSingle` and the hook.
    /// @param collectibleId The collectible.
    /// @param claimId The claim.
    /// @param to The receiver, which has code.
    function mintIsolated(address operator, bytes16 collectibleId, bytes16 claimId, address to) external;

    /// @notice Gas a receiver's `onERC1155Received` gets when a claim mints to a contract.
    /// @dev Fixed at deployment (within 10,000..1,000,000; the deploy tooling's default is
    /// 50,000: a proxied smart-contract wallet such as a Safe accepts with well under half of it).
    /// A hook that needs more is treated as refusing, so one receiver can cost a batch at most this
    /// much plus the isolated mint, which lets the sender cap a batch's gas from its size.
    /// @return The budget in gas.
    function hookGasBudget() external view returns (uint256);

    /// @notice The token id of a claim.
    /// @param collectibleId The collectible.
    /// @param claimId The claim.
    /// @return The token id `uint256(collectibleId) << 128 | uint256(claimId)`.
    function tokenIdOf(bytes16 collectibleId, bytes16 claimId) external pure returns (uint256);

    /// @notice Whether a claim has been minted.
    /// @param collectibleId The collectible.
    /// @param claimId The claim.
    /// @return True once the claim's token exists.
    function isClaimed(bytes16 collectibleId, bytes16 claimId) external view returns (bool);

    /// @notice A collectible's organization, creator, supply, claimed count and metadata.
    /// @param id The collectible; reverts with `UnknownCollectible` when there is none.
    /// @return The collectible's record.
    function collectible(bytes16 id) external view returns (CollectibleInfo memory);

    /// @notice How many tokens of a collectible have been claimed.
    /// @param id The collectible; reverts with `UnknownCollectible` when there is none.
    /// @return The claimed count.
    function claimedCount(bytes16 id) external view returns (uint64);

    /// @notice How many tokens of a collectible can still be claimed.
    /// @param id The collectible; reverts with `UnknownCollectible` when there is none.
    /// @return `totalSupply - claimed`.
    function availableCount(bytes16 id) external view returns (uint64);

    /// @notice The current holder of a token.
    /// @param tokenId The token; reverts with `TokenDoesNotExist` when it was never minted.
    /// @return The address whose balance of `tokenId` is 1.
    function holderOf(uint256 tokenId) external view returns (address);

    /// @notice The edition number of a token, from 1 to its collectible's total supply.
    /// @param tokenId The token; reverts with `TokenDoesNotExist` when it was never minted.
    /// @return One more than the number of tokens of the collectible minted before it, in the
    /// log order of their mint events.
    function editionOf(uint256 tokenId) external view returns (uint256);
}
