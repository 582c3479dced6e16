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
 * minted once only, which makes a retried claim transaction revert instead of minting twice, and
 * token ids of different collectibles can never collide.
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

    /// @notice One claim in a batch.
    /// @param collectibleId Off-chain id of the collectible to mint from.
    /// @param claimId Off-chain id of the claim; a (collectibleId, claimId) pair mints at most once.
    /// @param to Address that receives the token.
    struct Claim {
        bytes16 collectibleId;
        bytes16 claimId;
        address to;
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

    /// @notice Mints one token of a collectible to `to`. Only a minter can call it.
    /// @dev Reverts with `CollectibleSoldOut` past the total and `ClaimAlreadyMinted` for a claim
    /// id seen before, so a resent transaction never mints twice.
    /// @param collectibleId The collectible to mint from.
    /// @param claimId Off-chain id of the claim.
    /// @param to Receiver of the token; a contract must accept ERC-1155 tokens.
    /// @return tokenId The new token's id, `tokenIdOf(collectibleId, claimId)`.
    function claim(bytes16 collectibleId, bytes16 claimId, address to) external returns (uint256 tokenId);

    /// @notice Mints every claim of the batch in one transaction, or none of them.
    /// @dev Reverts with the errors of `claim`. Consecutive claims of one collectible are counted
    /// against its supply together, before any of them is minted: when they do not all fit, the
    /// batch reverts with `CollectibleSoldOut` even if one of them would also fail another check.
    /// @param claims The claims, in the order their editions are numbered.
    function claimBatch(Claim[] calldata claims) external;

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
    /// @return The edition number, in the order the claims were minted.
    function editionOf(uint256 tokenId) external view returns (uint256);
}
