// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {Collectibles} from "../contracts/Collectibles.sol";
import {ICollectibles} from "../contracts/interfaces/ICollectibles.sol";
import {ERC1155ReceiverMock, NonReceiverMock} from "../contracts/test/ERC1155ReceiverMock.sol";
import {Vm} from "./utils/Vm.sol";

/**
 * @notice Invariants of `Collectibles`, checked after every call of random sequences of creates,
 * claims, batch claims, approvals and transfers driven by `CollectiblesHandler`.
 * hardhat-config: invariant.runs = 32
 * hardhat-config: invariant.depth = 40
 */
contract CollectiblesInvariantTest {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    CollectiblesHandler internal handler;
    Collectibles internal collectibles;

    function setUp() public {
        handler = new CollectiblesHandler();
        collectibles = handler.collectibles();
    }

    /// @notice Only the handler is fuzzed (read by the runner, as forge-std's `targetContract`).
    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](1);
        targets[0] = address(handler);
    }

    /// Every call did what the rules predict: the same success, or the same revert with the same
    /// arguments.
    function invariant_everyOutcomeMatchesTheRules() public view {
        vm.assertEq(handler.mismatches(), 0, "outcomes that differ from the model");
    }

    /// claimed <= total for every collectible, and the contract's counts match the model.
    function invariant_claimedNeverExceedsTotal() public view {
        for (uint256 i = 0; i < handler.collectiblePoolSize(); ++i) {
            bytes16 id = handler.collectibleIdAt(i);
            if (!handler.created(id)) continue;
            uint64 claimed = collectibles.claimedCount(id);
            vm.assertLe(claimed, handler.modelTotal(id), "claimed <= total");
            vm.assertEq(claimed, handler.modelClaimed(id), "claimed matches the successful claims");
            vm.assertEq(collectibles.availableCount(id), handler.modelTotal(id) - claimed, "available");
        }
    }

    /// A claim id mints at most once: no token id was ever returned by two successful mints.
    function invariant_claimIdMintsAtMostOnce() public view {
        uint256[] memory minted = handler.mintedTokens();
        for (uint256 i = 0; i < minted.length; ++i) {
            vm.assertEq(handler.mintCount(minted[i]), 1, "mints of one token id");
        }
    }

    /// Token ids never collide across collectibles: all minted ids are distinct and each one's
    /// upper half is the collectible it was claimed from.
    function invariant_tokenIdsNeverCollide() public view {
        uint256[] memory minted = handler.mintedTokens();
        for (uint256 i = 0; i < minted.length; ++i) {
            vm.assertEq(
                bytes32(bytes16(uint128(minted[i] >> 128))),
                bytes32(handler.collectibleOf(minted[i])),
                "collectible half of the token id"
            );
            for (uint256 j = i + 1; j < minted.length; ++j) {
                vm.assertTrue(minted[i] != minted[j], "two mints share a token id");
            }
        }
    }

    /// Only a holder or an operator the holder approved ever moves a token, and every token is
    /// held by exactly the account the model says.
    function invariant_onlyHolderOrApprovedOperatorMovesTokens() public view {
        vm.assertEq(handler.unauthorisedMoves(), 0, "moves by unauthorised callers");
        uint256[] memory minted = handler.mintedTokens();
        address[] memory accounts = handler.actors();
        for (uint256 i = 0; i < minted.length; ++i) {
            address holder = handler.modelHolder(minted[i]);
            vm.assertEq(collectibles.holderOf(minted[i]), holder, "holder");
            for (uint256 a = 0; a < accounts.length; ++a) {
                uint256 expected = accounts[a] == holder ? 1 : 0;
                vm.assertEq(collectibles.balanceOf(accounts[a], minted[i]), expected, "balance");
            }
        }
    }

    /// Metadata never changes: every collectible keeps the metadata it was created with, and every
    /// token's uri() stays what it was when minted.
    function invariant_metadataNeverChanges() public view {
        for (uint256 i = 0; i < handler.collectiblePoolSize(); ++i) {
            bytes16 id = handler.collectibleIdAt(i);
            if (!handler.created(id)) continue;
            vm.assertEq(keccak256(abi.encode(collectibles.collectible(id).metadata)), handler.metadataHash(id), "metadata");
        }
        uint256[] memory minted = handler.mintedTokens();
        for (uint256 i = 0; i < minted.length; ++i) {
            vm.assertEq(keccak256(bytes(collectibles.uri(minted[i]))), handler.uriHash(minted[i]), "uri");
        }
    }
}

/**
 * @notice Invariant-test handler: the fuzzer calls these functions in random sequences. Each one
 * drives `Collectibles` from small pools of ids and actors (so duplicates, sold-out collectibles,
 * unknown ids, refusing receivers and unauthorised callers all happen often), predicts the outcome
 * from a plain model of the rules, and records any disagreement for the invariants to report.
 *
 * The handler is the contract's minter; `ADMIN` is its default admin.
 */
/// @dev Lives in this file so that running this file alone still compiles it as a root: the
/// invariant runner can only fuzz contracts it has an artifact for.
contract CollectiblesHandler {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    address public constant ADMIN = address(0xAD);
    uint256 internal constant COLLECTIBLE_POOL = 4;
    uint256 internal constant CLAIM_POOL = 12;
    uint64 internal constant MAX_TOTAL = 5;

    Collectibles public collectibles;
    address[] internal _actors;

    // ---------------------------------------------------------------- model
    mapping(bytes16 id => bool) public created;
    mapping(bytes16 id => uint64) public modelTotal;
    mapping(bytes16 id => uint64) public modelClaimed;
    mapping(bytes16 id => bytes32) public metadataHash;
    mapping(uint256 tokenId => address) public modelHolder;
    mapping(uint256 tokenId => uint256) public mintCount;
    mapping(uint256 tokenId => bytes16) public collectibleOf;
    mapping(uint256 tokenId => bytes32) public uriHash;
    mapping(address holder => mapping(address operator => bool)) public modelApproved;
    uint256[] internal _minted;

    // ---------------------------------------------------------------- findings
    /// @notice Calls whose outcome differed from the model's prediction.
    uint256 public mismatches;
    /// @notice Transfers that moved a token for a caller that was neither holder nor approved.
    uint256 public unauthorisedMoves;
    /// @notice Successful calls, to show the campaign did more than revert.
    uint256 public successes;

    constructor() {
        collectibles = new Collectibles(1 days, ADMIN, address(this));
        _actors.push(address(0xA11CE));
        _actors.push(address(0xB0B));
        _actors.push(address(0xCA7));
        _actors.push(
            address(
                new ERC1155ReceiverMock(
                    IERC1155Receiver.onERC1155Received.selector,
                    IERC1155Receiver.onERC1155BatchReceived.selector,
                    ERC1155ReceiverMock.RevertType.None
                )
            )
        );
        _actors.push(address(new NonReceiverMock()));
    }

    // ---------------------------------------------------------------- actions

    function createCollectible(uint256 idSeed, uint256 totalSeed, uint256 nameSeed) external {
        bytes16 id = _collectibleId(idSeed);
        uint64 total = uint64(totalSeed % (MAX_TOTAL + 1)); // 0 is a valid (refused) input
        ICollectibles.Metadata memory metadata = ICollectibles.Metadata({
            name: nameSeed % 5 == 0 ? "" : string.concat('Pass "', Strings.toString(nameSeed % 1000), '" \\ edition'),
            description: "A collectible",
            image: "ipfs://bafy",
            mimeType: "image/png"
        });

        bytes memory expected;
        if (created[id]) expected = abi.encodeWithSelector(ICollectibles.CollectibleAlreadyExists.selector, id);
        else if (total == 0) expected = abi.encodeWithSelector(ICollectibles.InvalidTotalSupply.selector, id);
        else if (bytes(metadata.name).length == 0) expected = abi.encodeWithSelector(ICollectibles.EmptyName.selector, id);

        try collectibles.createCollectible(id, bytes16(uint128(1)), bytes16(0), total, metadata) {
            _expectSuccess(expected);
            created[id] = true;
            modelTotal[id] = total;
            metadataHash[id] = keccak256(abi.encode(metadata));
        } catch (bytes memory reason) {
            _expectFailure(expected, reason);
        }
    }

    function claim(uint256 idSeed, uint256 claimSeed, uint256 actorSeed) external {
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](1);
        claims[0] = ICollectibles.Claim(_collectibleId(idSeed), _claimId(claimSeed), _actor(actorSeed));
        bytes memory expected = _predictClaims(claims);
        try collectibles.claim(claims[0].collectibleId, claims[0].claimId, claims[0].to) returns (uint256 tokenId) {
            _expectSuccess(expected);
            if (tokenId != collectibles.tokenIdOf(claims[0].collectibleId, claims[0].claimId)) ++mismatches;
            _recordMints(claims);
        } catch (bytes memory reason) {
            _expectFailure(expected, reason);
        }
    }

    function claimBatch(uint256 seed, uint256 sizeSeed) external {
        uint256 size = 1 + (sizeSeed % 6);
        ICollectibles.Claim[] memory claims = new ICollectibles.Claim[](size);
        for (uint256 i = 0; i < size; ++i) {
            uint256 s = uint256(keccak256(abi.encode(seed, i)));
            // Mostly the same collectible as the claim before, so batches hold runs of one collectible.
            bytes16 collectibleId = i > 0 && s % 4 != 0 ? claims[i - 1].collectibleId : _collectibleId(s >> 8);
            claims[i] = ICollectibles.Claim(collectibleId, _claimId(s >> 64), _actor(s >> 128));
        }
        bytes memory expected = _predictClaims(claims);
        try collectibles.claimBatch(claims) {
            _expectSuccess(expected);
            _recordMints(claims);
        } catch (bytes memory reason) {
            _expectFailure(expected, reason);
        }
    }

    function setApprovalForAll(uint256 ownerSeed, uint256 operatorSeed, bool approved) external {
        address owner = _actor(ownerSeed);
        address operator = _actor(operatorSeed);
        vm.prank(owner);
        collectibles.setApprovalForAll(operator, approved);
        modelApproved[owner][operator] = approved;
        ++successes;
    }

    /// @dev Tries to move a minted token; the caller is an actor, the minter (this handler) or
    /// the admin, and `from` is usually but not always the holder.
    function transfer(uint256 tokenSeed, uint256 callerSeed, uint256 fromSeed, uint256 toSeed, uint256 valueSeed)
        external
    {
        if (_minted.length == 0) return;
        uint256 tokenId = _minted[tokenSeed % _minted.length];
        address holder = modelHolder[tokenId];
        address from = fromSeed % 4 == 0 ? _actor(fromSeed >> 8) : holder;
        uint256 pick = callerSeed % 8;
        address caller = pick < 5 ? _actor(callerSeed >> 8) : pick == 5 ? address(this) : pick == 6 ? ADMIN : from;
        address to = _actor(toSeed);
        uint256 value = valueSeed % 5 == 0 ? valueSeed % 3 : 1;

        bool authorised = caller == from || modelApproved[from][caller];
        uint256 balance = holder == from ? 1 : 0;
        bytes memory expected;
        if (!authorised) {
            expected = abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, caller, from);
        } else if (value > balance) {
            expected =
                abi.encodeWithSelector(IERC1155Errors.ERC1155InsufficientBalance.selector, from, balance, value, tokenId);
        } else if (to == _actors[4]) {
            expected = abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, to);
        }

        // The prank must be the last cheatcode before the transfer: nothing else may call out between.
        if (caller != address(this)) vm.prank(caller);
        bool moved = toSeed % 2 == 0
            ? _batchTransfer(from, to, tokenId, value, expected)
            : _transfer(from, to, tokenId, value, expected);
        if (moved) {
            _expectSuccess(expected);
            address newHolder = collectibles.holderOf(tokenId);
            if (newHolder != holder && !authorised) ++unauthorisedMoves;
            if (value == 1) modelHolder[tokenId] = to;
        }
    }

    // ---------------------------------------------------------------- views for the invariants

    function collectibleIdAt(uint256 index) external pure returns (bytes16) {
        return _collectibleId(index);
    }

    function collectiblePoolSize() external pure returns (uint256) {
        return COLLECTIBLE_POOL;
    }

    function mintedTokens() external view returns (uint256[] memory) {
        return _minted;
    }

    function actors() external view returns (address[] memory) {
        return _actors;
    }

    // ---------------------------------------------------------------- internals

    function _transfer(address from, address to, uint256 tokenId, uint256 value, bytes memory expected)
        private
        returns (bool)
    {
        try collectibles.safeTransferFrom(from, to, tokenId, value, "") {
            return true;
        } catch (bytes memory reason) {
            _expectFailure(expected, reason);
            return false;
        }
    }

    function _batchTransfer(address from, address to, uint256 tokenId, uint256 value, bytes memory expected)
        private
        returns (bool)
    {
        uint256[] memory ids = new uint256[](1);
        ids[0] = tokenId;
        uint256[] memory values = new uint256[](1);
        values[0] = value;
        try collectibles.safeBatchTransferFrom(from, to, ids, values, "") {
            return true;
        } catch (bytes memory reason) {
            _expectFailure(expected, reason);
            return false;
        }
    }

    /// @dev The revert a list of claims must produce (empty when it must succeed), applying the
    /// contract's rules in its order: each run of consecutive claims of one collectible is counted
    /// first (unknown collectible, then sold out for the whole run), then its claims are minted one
    /// by one (claim id seen before, receiver refuses).
    function _predictClaims(ICollectibles.Claim[] memory claims) private view returns (bytes memory) {
        uint256[] memory tokens = new uint256[](claims.length);
        uint256 i = 0;
        while (i < claims.length) {
            bytes16 id = claims[i].collectibleId;
            uint256 end = i + 1;
            while (end < claims.length && claims[end].collectibleId == id) ++end;
            if (!created[id]) return abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, id);
            uint256 counted = modelClaimed[id];
            for (uint256 j = 0; j < i; ++j) {
                if (claims[j].collectibleId == id) ++counted;
            }
            if (counted + (end - i) > modelTotal[id]) {
                return abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, id, modelTotal[id]);
            }
            for (; i < end; ++i) {
                ICollectibles.Claim memory c = claims[i];
                uint256 tokenId = collectibles.tokenIdOf(c.collectibleId, c.claimId);
                bool seen = mintCount[tokenId] != 0;
                for (uint256 j = 0; j < i; ++j) {
                    if (tokens[j] == tokenId) seen = true;
                }
                if (seen) {
                    return abi.encodeWithSelector(ICollectibles.ClaimAlreadyMinted.selector, c.collectibleId, c.claimId);
                }
                if (c.to == _actors[4]) {
                    return abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, c.to);
                }
                tokens[i] = tokenId;
            }
        }
        return "";
    }

    function _recordMints(ICollectibles.Claim[] memory claims) private {
        for (uint256 i = 0; i < claims.length; ++i) {
            ICollectibles.Claim memory c = claims[i];
            uint256 tokenId = collectibles.tokenIdOf(c.collectibleId, c.claimId);
            ++mintCount[tokenId];
            ++modelClaimed[c.collectibleId];
            if (collectibles.editionOf(tokenId) != modelClaimed[c.collectibleId]) ++mismatches;
            modelHolder[tokenId] = c.to;
            collectibleOf[tokenId] = c.collectibleId;
            uriHash[tokenId] = keccak256(bytes(collectibles.uri(tokenId)));
            _minted.push(tokenId);
        }
    }

    function _expectSuccess(bytes memory expected) private {
        if (expected.length != 0) ++mismatches;
        else ++successes;
    }

    function _expectFailure(bytes memory expected, bytes memory reason) private {
        if (keccak256(expected) != keccak256(reason) || expected.length == 0) ++mismatches;
    }

    function _collectibleId(uint256 seed) private pure returns (bytes16) {
        return bytes16(keccak256(abi.encode("collectible", seed % COLLECTIBLE_POOL)));
    }

    function _claimId(uint256 seed) private pure returns (bytes16) {
        return bytes16(keccak256(abi.encode("claim", seed % CLAIM_POOL)));
    }

    function _actor(uint256 seed) private view returns (address) {
        return _actors[seed % _actors.length];
    }
}
