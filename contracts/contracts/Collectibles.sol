// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AccessControlDefaultAdminRules} from
    "@openzeppelin/contracts/access/extensions/AccessControlDefaultAdminRules.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {IERC1155MetadataURI} from "@openzeppelin/contracts/token/ERC1155/extensions/IERC1155MetadataURI.sol";
import {ERC1155Utils} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Utils.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {ICollectibles} from "./interfaces/ICollectibles.sol";

/**
 * @title Collectibles
 * @notice ERC-1155 collectibles whose every token is unique: one claim, one token id, balance 1.
 * @dev Ownership lives in one storage word per token (holder address and edition number), which is
 * also the exactly-once guard for its claim. OpenZeppelin's ERC1155 keeps a balance per
 * (id, account) and would need a second word for the guard; see GAS.md for what that saves.
 *
 * Nobody but a holder, or an operator the holder approved, can move a token: there is no burn, no
 * admin transfer, no setter for metadata or supply, and no upgrade path. The minter role can only
 * create collectibles and mint claims; the default admin (two-step transfer with a delay) can only
 * grant and revoke roles.
 */
contract Collectibles is ICollectibles, AccessControlDefaultAdminRules {
    using Strings for uint256;

    /// @notice Role allowed to create collectibles and mint claims (the service's relayer).
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @dev Supply and counter share one word so a claim reads and writes a single slot.
    struct Supply {
        uint64 totalSupply;
        uint64 claimed;
        bytes16 organizationId;
    }

    struct Record {
        Supply supply;
        bytes16 creatorId;
        Metadata metadata;
    }

    uint256 private constant _HOLDER_MASK = type(uint160).max;

    mapping(bytes16 collectibleId => Record) private _collectibles;

    /// @dev Holder address in the low 160 bits, edition number above; zero means never minted.
    mapping(uint256 tokenId => uint256 packed) private _tokens;

    mapping(address holder => mapping(address operator => bool)) private _operatorApprovals;

    /// @notice Deploys with a default admin and, optionally, a first minter.
    /// @param adminDelay Seconds a default admin transfer must wait before it can be accepted.
    /// @param admin Initial default admin (grants and revokes roles).
    /// @param minter Initial minter; zero to grant the role later.
    constructor(uint48 adminDelay, address admin, address minter) AccessControlDefaultAdminRules(adminDelay, admin) {
        if (minter != address(0)) _grantRole(MINTER_ROLE, minter);
    }

    // ---------------------------------------------------------------- collectibles and claims

    /// @inheritdoc ICollectibles
    function createCollectible(
        bytes16 id,
        bytes16 organizationId,
        bytes16 creatorId,
        uint64 totalSupply,
        Metadata calldata metadata
    ) external onlyRole(MINTER_ROLE) {
        if (id == 0) revert InvalidCollectibleId();
        Record storage record = _collectibles[id];
        if (record.supply.totalSupply != 0) revert CollectibleAlreadyExists(id);
        if (totalSupply == 0) revert InvalidTotalSupply(id);
        if (bytes(metadata.name).length == 0) revert EmptyName(id);

        record.supply = Supply({totalSupply: totalSupply, claimed: 0, organizationId: organizationId});
        record.creatorId = creatorId;
        record.metadata = metadata;
        emit CollectibleCreated(id, organizationId, creatorId, totalSupply, metadata);
    }

    /// @inheritdoc ICollectibles
    function claim(bytes16 collectibleId, bytes16 claimId, address to)
        external
        onlyRole(MINTER_ROLE)
        returns (uint256 tokenId)
    {
        uint256 edition = _countClaims(collectibleId, 1);
        tokenId = _mintClaim(collectibleId, claimId, to, edition);
    }

    /// @inheritdoc ICollectibles
    function claimBatch(Claim[] calldata claims) external onlyRole(MINTER_ROLE) {
        if (claims.length == 0) revert EmptyBatch();
        uint256 i = 0;
        while (i < claims.length) {
            // Consecutive claims of one collectible (a "run") are counted against its supply with a
            // single counter update, then minted one by one with consecutive editions.
            bytes16 collectibleId = claims[i].collectibleId;
            uint256 end = i + 1;
            while (end < claims.length && claims[end].collectibleId == collectibleId) ++end;
            uint256 edition = _countClaims(collectibleId, end - i);
            for (; i < end; ++i) {
                Claim calldata c = claims[i];
                _mintClaim(collectibleId, c.claimId, c.to, edition);
                ++edition;
            }
        }
    }

    /// @dev Counts `count` claims against the collectible's supply, or reverts when it is unknown
    /// or they do not fit, and returns the first of their edition numbers. It runs before any of
    /// their tokens is minted, so every receiver hook called later already sees them counted
    /// (checks, effects, interactions): a re-entrant claim can never pass the total.
    function _countClaims(bytes16 collectibleId, uint256 count) private returns (uint256 firstEdition) {
        Supply storage supply = _collectibles[collectibleId].supply;
        uint256 totalSupply = supply.totalSupply;
        uint256 claimed = supply.claimed;
        if (totalSupply == 0) revert UnknownCollectible(collectibleId);
        uint256 newClaimed = claimed + count;
        if (newClaimed > totalSupply) revert CollectibleSoldOut(collectibleId, uint64(totalSupply));
        supply.claimed = uint64(newClaimed); // fits: newClaimed <= totalSupply, a uint64
        // Cannot overflow: claimed is a uint64 read into 256 bits.
        unchecked {
            firstEdition = claimed + 1;
        }
    }

    /// @dev Records the token of one claim (refusing a claim id seen before), emits the mint, then
    /// calls a contract receiver last.
    function _mintClaim(bytes16 collectibleId, bytes16 claimId, address to, uint256 edition)
        private
        returns (uint256 tokenId)
    {
        if (to == address(0)) revert ERC1155InvalidReceiver(address(0));
        if (claimId == 0) revert InvalidClaimId(collectibleId);

        tokenId = _tokenIdOf(collectibleId, claimId);
        if (_tokens[tokenId] != 0) revert ClaimAlreadyMinted(collectibleId, claimId);
        _tokens[tokenId] = (edition << 160) | uint160(to);

        emit TransferSingle(msg.sender, address(0), to, tokenId, 1);
        ERC1155Utils.checkOnERC1155Received(msg.sender, address(0), to, tokenId, 1, "");
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc ICollectibles
    function tokenIdOf(bytes16 collectibleId, bytes16 claimId) external pure returns (uint256) {
        return _tokenIdOf(collectibleId, claimId);
    }

    /// @inheritdoc ICollectibles
    function isClaimed(bytes16 collectibleId, bytes16 claimId) external view returns (bool) {
        return _tokens[_tokenIdOf(collectibleId, claimId)] != 0;
    }

    /// @inheritdoc ICollectibles
    function collectible(bytes16 id) external view returns (CollectibleInfo memory) {
        Record storage record = _existing(id);
        return CollectibleInfo({
            organizationId: record.supply.organizationId,
            creatorId: record.creatorId,
            totalSupply: record.supply.totalSupply,
            claimed: record.supply.claimed,
            metadata: record.metadata
        });
    }

    /// @inheritdoc ICollectibles
    function claimedCount(bytes16 id) external view returns (uint64) {
        return _existing(id).supply.claimed;
    }

    /// @inheritdoc ICollectibles
    function availableCount(bytes16 id) external view returns (uint64) {
        Supply storage supply = _existing(id).supply;
        return supply.totalSupply - supply.claimed;
    }

    /// @inheritdoc ICollectibles
    function holderOf(uint256 tokenId) external view returns (address) {
        return address(uint160(_mintedToken(tokenId)));
    }

    /// @inheritdoc ICollectibles
    function editionOf(uint256 tokenId) external view returns (uint256) {
        return _mintedToken(tokenId) >> 160;
    }

    /**
     * @notice ERC-1155 metadata of a minted token as a `data:application/json;base64,` URI:
     * `name` is `<name> #<edition>`, with `description` and `image`, and the edition, total supply,
     * MIME type and collectible id under `properties`. Everything comes from the immutable
     * collectible metadata, so a token's metadata never changes.
     * @param tokenId The token; reverts with `TokenDoesNotExist` when it was never minted.
     */
    function uri(uint256 tokenId) external view returns (string memory) {
        uint256 edition = _mintedToken(tokenId) >> 160;
        bytes16 collectibleId = bytes16(uint128(tokenId >> 128));
        Record storage record = _collectibles[collectibleId];
        Metadata storage metadata = record.metadata;
        // JSON needs double quotes inside the literals, so these literals use single quotes.
        // solhint-disable quotes
        bytes memory json = abi.encodePacked(
            '{"name":"',
            Strings.escapeJSON(string.concat(metadata.name, " #", edition.toString())),
            '","description":"',
            Strings.escapeJSON(metadata.description),
            '","image":"',
            Strings.escapeJSON(metadata.image),
            '","properties":{"edition":',
            edition.toString(),
            ',"total_supply":',
            uint256(record.supply.totalSupply).toString(),
            ',"mime_type":"',
            Strings.escapeJSON(metadata.mimeType),
            '","collectible_id":"',
            Strings.toHexString(uint256(uint128(collectibleId)), 16),
            '"}}'
        );
        // solhint-enable quotes
        return string.concat("data:application/json;base64,", Base64.encode(json));
    }

    // ---------------------------------------------------------------- ERC-1155

    /// @inheritdoc IERC1155
    function balanceOf(address account, uint256 id) public view returns (uint256) {
        return account != address(0) && address(uint160(_tokens[id])) == account ? 1 : 0;
    }

    /// @inheritdoc IERC1155
    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids)
        external
        view
        returns (uint256[] memory balances)
    {
        if (accounts.length != ids.length) revert ERC1155InvalidArrayLength(ids.length, accounts.length);
        balances = new uint256[](accounts.length);
        for (uint256 i = 0; i < accounts.length; ++i) {
            balances[i] = balanceOf(accounts[i], ids[i]);
        }
    }

    /// @inheritdoc IERC1155
    function setApprovalForAll(address operator, bool approved) external {
        if (operator == address(0)) revert ERC1155InvalidOperator(address(0));
        _operatorApprovals[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    /// @inheritdoc IERC1155
    function isApprovedForAll(address account, address operator) public view returns (bool) {
        return _operatorApprovals[account][operator];
    }

    /// @inheritdoc IERC1155
    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external {
        _checkAuthorized(from);
        _checkParties(from, to);
        _move(from, to, id, value);
        emit TransferSingle(msg.sender, from, to, id, value);
        ERC1155Utils.checkOnERC1155Received(msg.sender, from, to, id, value, data);
    }

    /// @inheritdoc IERC1155
    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external {
        _checkAuthorized(from);
        _checkParties(from, to);
        if (ids.length != values.length) revert ERC1155InvalidArrayLength(ids.length, values.length);
        for (uint256 i = 0; i < ids.length; ++i) {
            _move(from, to, ids[i], values[i]);
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
        ERC1155Utils.checkOnERC1155BatchReceived(msg.sender, from, to, ids, values, data);
    }

    /// @dev Only the holder or an operator the holder approved may move the holder's tokens.
    function _checkAuthorized(address from) private view {
        if (from != msg.sender && !isApprovedForAll(from, msg.sender)) {
            revert ERC1155MissingApprovalForAll(msg.sender, from);
        }
    }

    /// @dev Tokens are never burnt, and only minting comes from the zero address.
    function _checkParties(address from, address to) private pure {
        if (to == address(0)) revert ERC1155InvalidReceiver(address(0));
        if (from == address(0)) revert ERC1155InvalidSender(address(0));
    }

    /// @dev Moves `value` (0 or 1) of token `id`; the edition number stays with the token.
    function _move(address from, address to, uint256 id, uint256 value) private {
        uint256 token = _tokens[id];
        uint256 balance = address(uint160(token)) == from ? 1 : 0;
        if (value > balance) revert ERC1155InsufficientBalance(from, balance, value, id);
        if (value == 1) _tokens[id] = (token & ~_HOLDER_MASK) | uint160(to);
    }

    /// @inheritdoc IERC165
    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(AccessControlDefaultAdminRules, IERC165)
        returns (bool)
    {
        return interfaceId == type(IERC1155).interfaceId || interfaceId == type(IERC1155MetadataURI).interfaceId
            || super.supportsInterface(interfaceId);
    }

    // ---------------------------------------------------------------- internals

    function _tokenIdOf(bytes16 collectibleId, bytes16 claimId) private pure returns (uint256) {
        return (uint256(uint128(collectibleId)) << 128) | uint256(uint128(claimId));
    }

    function _existing(bytes16 id) private view returns (Record storage record) {
        record = _collectibles[id];
        if (record.supply.totalSupply == 0) revert UnknownCollectible(id);
    }

    function _mintedToken(uint256 tokenId) private view returns (uint256 token) {
        token = _tokens[tokenId];
        if (token == 0) revert TokenDoesNotExist(tokenId);
    }
}
