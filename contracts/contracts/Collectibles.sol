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

    /// @notice Smallest accepted hook gas budget: below it even a minimal receiver behind a proxy
    /// could not accept, and every contract receiver would be skipped.
    uint256 public constant MIN_HOOK_GAS_BUDGET = 10_000;

    /// @notice Largest accepted hook gas budget, so that one receiver's cost to a batch stays small.
    uint256 public constant MAX_HOOK_GAS_BUDGET = 1_000_000;

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

    /// @dev Bytes per packed claim in a `ClaimRun`: a 16-byte claim id and a 20-byte address.
    uint256 private constant _CLAIM_BYTES = 36;

    /// @dev Gas kept besides the hook's budget when calling it: the call itself (up to a cold
    /// EIP-7702 delegation target) and reading its answer.
    uint256 private constant _HOOK_CALL_RESERVE = 5_000;

    /// @dev Gas `claimBatch` makes sure of before an isolated mint, besides the hook's budget and
    /// the 1/64 kept back at each of the two calls: the self-call, the token word, its event, and
    /// emitting `ClaimSkipped` afterwards. The exact check is the one before the hook; this one
    /// turns running dry inside the self-call (which would look like a refusal without data) into
    /// the same clear error.
    uint256 private constant _ISOLATED_MINT_GAS = 40_000;

    /// @dev Most revert data of a refusing hook that `claim` passes on. The caller pays to copy it
    /// (memory grows quadratically: 600 kB would cost it ~800,000 gas on top of the hook's
    /// budget), so longer data is not copied and `claim` reverts with `ERC1155InvalidReceiver`.
    /// 1,024 bytes hold any custom error, `Error(string)` of up to 928 bytes or `Panic`.
    uint256 private constant _MAX_HOOK_REVERT_BYTES = 1024;

    uint256 private immutable _hookGasBudget;

    mapping(bytes16 collectibleId => Record) private _collectibles;

    /// @dev Holder address in the low 160 bits, edition number above; zero means never minted.
    mapping(uint256 tokenId => uint256 packed) private _tokens;

    mapping(address holder => mapping(address operator => bool)) private _operatorApprovals;

    /// @dev Who holds MINTER_ROLE, mirrored by the role hooks below: the check on every mint is one
    /// storage read instead of AccessControl's nested mapping behind two internal calls, which
    /// saves about 220 gas per claim (GAS.md). `hasRole` stays the source of truth for readers.
    mapping(address account => bool) private _isMinter;

    /// @dev Only an account holding MINTER_ROLE; the same error as AccessControl's `onlyRole`.
    modifier onlyMinter() {
        if (!_isMinter[msg.sender]) revert AccessControlUnauthorizedAccount(msg.sender, MINTER_ROLE);
        _;
    }

    /// @notice Deploys with a default admin, optionally a first minter, and the receiver hooks'
    /// gas budget.
    /// @param adminDelay Seconds a default admin transfer must wait before it can be accepted.
    /// @param admin Initial default admin (grants and revokes roles).
    /// @param minter Initial minter; zero to grant the role later.
    /// @param hookGasBudget_ Gas a contract receiver's `onERC1155Received` gets on a mint, from
    /// `MIN_HOOK_GAS_BUDGET` to `MAX_HOOK_GAS_BUDGET` (the deploy tooling's default: 50,000).
    constructor(uint48 adminDelay, address admin, address minter, uint256 hookGasBudget_)
        AccessControlDefaultAdminRules(adminDelay, admin)
    {
        if (hookGasBudget_ < MIN_HOOK_GAS_BUDGET || hookGasBudget_ > MAX_HOOK_GAS_BUDGET) {
            revert InvalidHookGasBudget(hookGasBudget_, MIN_HOOK_GAS_BUDGET, MAX_HOOK_GAS_BUDGET);
        }
        _hookGasBudget = hookGasBudget_;
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
    ) external onlyMinter {
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
        onlyMinter
        returns (uint256 tokenId)
    {
        Supply storage supply = _collectibles[collectibleId].supply;
        uint256 totalSupply = supply.totalSupply;
        uint256 claimed = supply.claimed;
        if (totalSupply == 0) revert UnknownCollectible(collectibleId);
        if (to == address(0)) revert ERC1155InvalidReceiver(address(0));
        if (claimId == 0) revert InvalidClaimId(collectibleId);
        tokenId = _tokenIdOf(collectibleId, claimId);
        if (_tokens[tokenId] != 0) revert ClaimAlreadyMinted(collectibleId, claimId);
        if (claimed >= totalSupply) revert CollectibleSoldOut(collectibleId, uint64(totalSupply));

        // Cannot overflow: claimed < totalSupply, a uint64.
        unchecked {
            ++claimed;
        }
        supply.claimed = uint64(claimed);
        _tokens[tokenId] = (claimed << 160) | uint160(to);
        emit TransferSingle(msg.sender, address(0), to, tokenId, 1);

        if (to.code.length != 0) {
            (bool accepted, bool reverted, bool exceeded) = _callHook(msg.sender, to, tokenId);
            if (exceeded) revert ReceiverGasExceeded(to, _hookGasBudget);
            if (reverted) _bubbleHookRevert();
            if (!accepted) revert ERC1155InvalidReceiver(to);
        }
    }

    /// @inheritdoc ICollectibles
    function claimBatch(ClaimRun[] calldata runs) external onlyMinter {
        if (runs.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < runs.length; ++i) {
            ClaimRun calldata run = runs[i];
            _claimRun(run.collectibleId, run.claims);
        }
    }

    /// @inheritdoc ICollectibles
    function mintIsolated(address operator, bytes16 collectibleId, bytes16 claimId, address to) external {
        if (msg.sender != address(this)) revert CallerNotSelf(msg.sender);
        Supply storage supply = _collectibles[collectibleId].supply;
        // claimBatch checked that an edition is left and flushed its count before this call.
        uint256 edition = supply.claimed + 1;
        supply.claimed = uint64(edition);
        uint256 tokenId = _tokenIdOf(collectibleId, claimId);
        _tokens[tokenId] = (edition << 160) | uint160(to);
        emit TransferSingle(operator, address(0), to, tokenId, 1);

        (bool accepted,, bool exceeded) = _callHook(operator, to, tokenId);
        if (exceeded) revert ReceiverGasExceeded(to, _hookGasBudget);
        if (!accepted) revert ERC1155InvalidReceiver(to);
    }

    /// @dev Mints the claims of one run in order. The claimed count lives on the stack while the
    /// receivers are plain accounts (no code runs between those mints, so nobody can see it) and
    /// is written back before any hook runs and at the end: the slot is written once per run, not
    /// once per claim, while every token still gets its edition at the moment it is minted.
    function _claimRun(bytes16 collectibleId, bytes calldata claims) private {
        uint256 length = claims.length;
        if (length == 0 || length % _CLAIM_BYTES != 0) revert MalformedClaimRun(collectibleId, length);
        Supply storage supply = _collectibles[collectibleId].supply;
        uint256 totalSupply = supply.totalSupply;
        uint256 claimed = supply.claimed;
        if (totalSupply == 0) revert UnknownCollectible(collectibleId);

        uint256 high = uint256(uint128(collectibleId)) << 128;
        uint256 offset;
        // The packed records are read straight from calldata, 36 bytes each, with no ABI decoding
        // or slice bounds checks: the length check above keeps every read inside `claims`.
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            offset := claims.offset
        }
        uint256 end = offset + length;
        for (; offset < end; offset += _CLAIM_BYTES) {
            uint256 claimNumber;
            address to;
            // solhint-disable-next-line no-inline-assembly
            assembly ("memory-safe") {
                claimNumber := shr(128, calldataload(offset))
                to := shr(96, calldataload(add(offset, 16)))
            }
            if (claimNumber == 0) revert InvalidClaimId(collectibleId);
            if (to == address(0)) revert ERC1155InvalidReceiver(address(0));
            uint256 tokenId = high | claimNumber;
            if (_tokens[tokenId] != 0) {
                emit ClaimSkipped(collectibleId, bytes16(uint128(claimNumber)), to, SkipReason.AlreadyMinted);
            } else if (claimed >= totalSupply) {
                emit ClaimSkipped(collectibleId, bytes16(uint128(claimNumber)), to, SkipReason.SoldOut);
            } else if (to.code.length == 0) {
                // Cannot overflow: claimed < totalSupply, a uint64.
                unchecked {
                    ++claimed;
                }
                _tokens[tokenId] = (claimed << 160) | uint160(to);
                emit TransferSingle(msg.sender, address(0), to, tokenId, 1);
            } else {
                supply.claimed = uint64(claimed);
                _mintToContract(collectibleId, bytes16(uint128(claimNumber)), to);
                // The hook may have claimed as well (a receiver holding the minter role).
                claimed = supply.claimed;
            }
        }
        supply.claimed = uint64(claimed);
    }

    /// @dev Mints one claim to a contract receiver in a self-call, so that a refusing or
    /// gas-hungry hook undoes only this claim: the claim is then skipped with the reason. Any
    /// other failure of the self-call reverts the whole batch.
    function _mintToContract(bytes16 collectibleId, bytes16 claimId, address to) private {
        uint256 budget = _hookGasBudget;
        uint256 needed = budget + budget / 32 + _ISOLATED_MINT_GAS;
        if (gasleft() < needed) revert InsufficientGasForHook(needed, gasleft());
        // Minted and accepted: nothing more to do.
        // solhint-disable-next-line no-empty-blocks
        try this.mintIsolated(msg.sender, collectibleId, claimId, to) {}
        catch (bytes memory reason) {
            bytes4 selector = bytes4(reason);
            SkipReason why;
            if (selector == ERC1155InvalidReceiver.selector) why = SkipReason.ReceiverRefused;
            else if (selector == ReceiverGasExceeded.selector) why = SkipReason.ReceiverGasExceeded;
            else if (reason.length == 0) revert InsufficientGasForHook(needed, gasleft());
            else _bubble(reason);
            emit ClaimSkipped(collectibleId, claimId, to, why);
        }
    }

    /// @dev Calls `onERC1155Received(operator, 0, tokenId, 1, "")` on `to` with exactly the hook
    /// gas budget, reading at most 32 bytes of its answer (a huge answer costs the caller nothing).
    /// Reverts with `InsufficientGasForHook` rather than call it with less than the full budget.
    /// Answers whether the hook accepted (answered its selector), reverted (its revert data is then
    /// the last return data) and, when it failed, whether it had used up its budget. Assembly: the
    /// call needs an exact gas amount, a bounded copy of the answer and the gas it used.
    function _callHook(address operator, address to, uint256 tokenId)
        private
        returns (bool accepted, bool reverted, bool exceeded)
    {
        uint256 budget = _hookGasBudget;
        {
            // 63/64 rule: the hook gets all of `budget` only if 1/63 of it more is left.
            uint256 needed = budget + budget / 63 + _HOOK_CALL_RESERVE;
            uint256 left = gasleft();
            if (left < needed) revert InsufficientGasForHook(needed, left);
        }
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            // onERC1155Received(address,address,uint256,uint256,bytes) with an empty `data`.
            mstore(ptr, shl(224, 0xf23a6e61))
            mstore(add(ptr, 0x04), operator)
            mstore(add(ptr, 0x24), 0)
            mstore(add(ptr, 0x44), tokenId)
            mstore(add(ptr, 0x64), 1)
            mstore(add(ptr, 0x84), 0xa0)
            mstore(add(ptr, 0xa4), 0)
            mstore(0x00, 0)
            let before := gas()
            let success := call(budget, to, 0, ptr, 0xc4, 0x00, 0x20)
            reverted := iszero(success)
            // Out of gas takes all the gas given; a revert gives the rest back.
            exceeded := and(reverted, iszero(lt(sub(before, gas()), budget)))
            accepted := and(success, and(gt(returndatasize(), 0x1f), eq(shr(224, mload(0x00)), 0xf23a6e61)))
        }
    }

    /// @dev A single claim's receiver reverted: pass on its revert data, as OpenZeppelin's
    /// ERC1155Utils does, when it is at most `_MAX_HOOK_REVERT_BYTES` long; returns when there is
    /// none or more (the caller then reverts with `ERC1155InvalidReceiver`), so a hook's revert
    /// costs the caller at most that copy besides the hook's budget. Must directly follow
    /// `_callHook` (it reads the hook's return data).
    function _bubbleHookRevert() private pure {
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            let size := returndatasize()
            if and(gt(size, 0), iszero(gt(size, _MAX_HOOK_REVERT_BYTES))) {
                let ptr := mload(0x40)
                returndatacopy(ptr, 0, size)
                revert(ptr, size)
            }
        }
    }

    /// @dev Re-raises revert data of a call of this contract to itself.
    function _bubble(bytes memory reason) private pure {
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            revert(add(reason, 0x20), mload(reason))
        }
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc ICollectibles
    function hookGasBudget() external view returns (uint256) {
        return _hookGasBudget;
    }

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

    /// @dev Keeps `_isMinter` in step with MINTER_ROLE on every grant (constructor included).
    function _grantRole(bytes32 role, address account) internal override returns (bool granted) {
        granted = super._grantRole(role, account);
        if (granted && role == MINTER_ROLE) _isMinter[account] = true;
    }

    /// @dev Keeps `_isMinter` in step with MINTER_ROLE on every revoke and renounce.
    function _revokeRole(bytes32 role, address account) internal override returns (bool revoked) {
        revoked = super._revokeRole(role, account);
        if (revoked && role == MINTER_ROLE) _isMinter[account] = false;
    }

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
