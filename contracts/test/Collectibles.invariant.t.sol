// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1155Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";
import {Collectibles} from "../contracts/Collectibles.sol";
import {ICollectibles} from "../contracts/interfaces/ICollectibles.sol";
import {ERC1155ReceiverMock, NonReceiverMock} from "../contracts/test/ERC1155ReceiverMock.sol";
import {GasBurnerReceiverMock} from "../contracts/test/GasBurnerReceiverMock.sol";
import {ReentrantMinterMock} from "../contracts/test/ReentrantMinterMock.sol";
import {Vm} from "./utils/Vm.sol";

/**
 * @notice Invariants of `Collectibles`, checked after every call of random sequences of creates,
 * claims, batch claims, approvals and transfers driven by `CollectiblesHandler`. Claims go to
 * plain accounts, an accepting receiver, refusing receivers (revert with and without data, wrong
 * answer, no hook), a gas burner and a receiver holding the minter role that claims again from
 * its hook.
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

    /// claimed <= total for every collectible, and claimed equals the tokens minted of it.
    function invariant_claimedEqualsMintedAndNeverExceedsTotal() public view {
        uint256[] memory minted = handler.mintedTokens();
        for (uint256 i = 0; i < handler.collectiblePoolSize(); ++i) {
            bytes16 id = handler.collectibleIdAt(i);
            if (!handler.created(id)) continue;
            uint64 claimed = collectibles.claimedCount(id);
            vm.assertLe(claimed, handler.modelTotal(id), "claimed <= total");
            vm.assertEq(claimed, handler.modelClaimed(id), "claimed matches the model");
            uint256 tokens = 0;
            for (uint256 t = 0; t < minted.length; ++t) {
                if (handler.collectibleOf(minted[t]) == id) ++tokens;
            }
            vm.assertEq(claimed, tokens, "claimed == tokens minted");
            vm.assertEq(collectibles.availableCount(id), handler.modelTotal(id) - claimed, "available");
        }
    }

    /// Editions are unique and contiguous per collectible: its tokens hold exactly 1..claimed,
    /// each given in the order of the mint events (checked as every call's logs are read).
    function invariant_editionsAreContiguousInMintEventOrder() public view {
        vm.assertEq(handler.eventMismatches(), 0, "mint or skip events that differ from the model");
        uint256[] memory minted = handler.mintedTokens();
        for (uint256 i = 0; i < handler.collectiblePoolSize(); ++i) {
            bytes16 id = handler.collectibleIdAt(i);
            if (!handler.created(id)) continue;
            uint256 claimed = collectibles.claimedCount(id);
            bool[] memory seen = new bool[](claimed + 1);
            for (uint256 t = 0; t < minted.length; ++t) {
                if (handler.collectibleOf(minted[t]) != id) continue;
                uint256 edition = collectibles.editionOf(minted[t]);
                vm.assertTrue(edition >= 1 && edition <= claimed, "edition in 1..claimed");
                vm.assertFalse(seen[edition], "edition used once");
                seen[edition] = true;
                vm.assertEq(edition, handler.modelEdition(minted[t]), "edition of its mint event");
            }
        }
    }

    /// Refused claims (refusing receiver, gas burner) are not minted: until a later claim of the
    /// same id mints it (which the fuzzer's small pool of ids makes happen), it is unclaimed and
    /// the receiver that refused it holds nothing.
    function invariant_refusedClaimsAreNotMinted() public view {
        uint256[] memory refused = handler.refusedTokens();
        for (uint256 i = 0; i < refused.length; ++i) {
            if (handler.mintCount(refused[i]) != 0) continue;
            bytes16 collectibleId = bytes16(uint128(refused[i] >> 128));
            bytes16 claimId = bytes16(uint128(refused[i]));
            vm.assertFalse(collectibles.isClaimed(collectibleId, claimId), "still claimable");
            vm.assertEq(collectibles.balanceOf(handler.refusedBy(refused[i]), refused[i]), 0, "refuser holds nothing");
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
 * from a plain model of the rules, including the mint and skip events in their order and the
 * claim a re-entrant receiver makes from its hook, and records any disagreement for the
 * invariants to report.
 *
 * The handler is the contract's minter; `ADMIN` is its default admin.
 */
/// @dev Lives in this file so that running this file alone still compiles it as a root: the
/// invariant runner can only fuzz contracts it has an artifact for.
contract CollectiblesHandler {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    address public constant ADMIN = address(0xAD);
    bytes32 internal constant MINTER_ROLE = keccak256("MINTER_ROLE");
    uint256 internal constant COLLECTIBLE_POOL = 4;
    uint256 internal constant CLAIM_POOL = 12;
    uint64 internal constant MAX_TOTAL = 5;
    /// @dev Enough for the re-entrant receiver's hook (its own storage writes and a claim).
    uint256 internal constant HOOK_GAS_BUDGET = 200_000;

    /// @dev How each actor takes a token: index ranges of `_actors`.
    uint256 internal constant PLAIN = 3; // 0..2: accounts without code
    uint256 internal constant ACCEPTING = 3;
    uint256 internal constant NO_HOOK = 4;
    uint256 internal constant REVERTS = 5;
    uint256 internal constant REVERTS_WITH_MESSAGE = 6;
    uint256 internal constant WRONG_ANSWER = 7;
    uint256 internal constant GAS_BURNER = 8;
    uint256 internal constant REENTRANT = 9;
    /// @dev Transfers go to the first five actors only (the burner would eat the fuzzer's gas,
    /// OpenZeppelin-style transfers forward all of it).
    uint256 internal constant TRANSFER_TARGETS = 5;

    enum Kind {
        Mint,
        Skip
    }

    /// @dev One event the model expects, in log order.
    struct Expected {
        Kind kind;
        uint8 reason;
        address to;
        uint256 tokenId;
        uint256 edition;
    }

    Collectibles public collectibles;
    ReentrantMinterMock internal _reentrant;
    address[] internal _actors;

    // ---------------------------------------------------------------- model
    mapping(bytes16 id => bool) public created;
    mapping(bytes16 id => uint64) public modelTotal;
    mapping(bytes16 id => uint64) public modelClaimed;
    mapping(bytes16 id => bytes32) public metadataHash;
    mapping(uint256 tokenId => address) public modelHolder;
    mapping(uint256 tokenId => uint256) public mintCount;
    mapping(uint256 tokenId => uint256) public modelEdition;
    mapping(uint256 tokenId => bytes16) public collectibleOf;
    mapping(uint256 tokenId => bytes32) public uriHash;
    mapping(uint256 tokenId => address) public refusedBy;
    mapping(address holder => mapping(address operator => bool)) public modelApproved;
    uint256[] internal _minted;
    uint256[] internal _refused;
    /// @dev The re-entrant receiver's armed claim, as the model knows it.
    bool internal _armed;
    /// @dev Whether the call being predicted runs the armed hook (applied only if it succeeds).
    bool internal _predictedDisarm;
    bytes16 internal _armedCollectible;
    bytes16 internal _armedClaim;
    address internal _armedTo;

    // ---------------------------------------------------------------- findings
    /// @notice Calls whose outcome differed from the model's prediction.
    uint256 public mismatches;
    /// @notice Calls whose mint and skip events differed from the model's, in kind or order.
    uint256 public eventMismatches;
    /// @notice Transfers that moved a token for a caller that was neither holder nor approved.
    uint256 public unauthorisedMoves;
    /// @notice Successful calls, to show the campaign did more than revert.
    uint256 public successes;
    /// @notice Claims skipped because the receiver refused or ran out of budget.
    uint256 public refusals;
    /// @notice Mints made from inside a receiver's hook.
    uint256 public reentrantMints;

    constructor() {
        collectibles = new Collectibles(1 days, ADMIN, address(this), HOOK_GAS_BUDGET);
        bytes4 single = IERC1155Receiver.onERC1155Received.selector;
        bytes4 batch = IERC1155Receiver.onERC1155BatchReceived.selector;
        _actors.push(address(0xA11CE));
        _actors.push(address(0xB0B));
        _actors.push(address(0xCA7));
        _actors.push(address(new ERC1155ReceiverMock(single, batch, ERC1155ReceiverMock.RevertType.None)));
        _actors.push(address(new NonReceiverMock()));
        _actors.push(address(new ERC1155ReceiverMock(single, batch, ERC1155ReceiverMock.RevertType.RevertWithoutMessage)));
        _actors.push(address(new ERC1155ReceiverMock(single, batch, ERC1155ReceiverMock.RevertType.RevertWithMessage)));
        _actors.push(address(new ERC1155ReceiverMock(0xdeadbeef, 0xdeadbeef, ERC1155ReceiverMock.RevertType.None)));
        _actors.push(address(new GasBurnerReceiverMock(10_000_000)));
        _reentrant = new ReentrantMinterMock(collectibles);
        _actors.push(address(_reentrant));
        vm.prank(ADMIN);
        collectibles.grantRole(MINTER_ROLE, address(_reentrant));
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

    /// @dev Makes the re-entrant receiver claim (collectible, claim, plain account) from its next hook.
    function armReentrantReceiver(uint256 idSeed, uint256 claimSeed, uint256 toSeed) external {
        // Only collectibles that exist: the mock reads claimedCount first, which reverts otherwise.
        if (!created[_collectibleId(idSeed)]) return;
        _armedCollectible = _collectibleId(idSeed);
        _armedClaim = _claimId(claimSeed);
        _armedTo = _actors[toSeed % PLAIN];
        _armed = true;
        _reentrant.arm(_armedCollectible, _armedClaim, _armedTo, false, false);
    }

    function claim(uint256 idSeed, uint256 claimSeed, uint256 actorSeed) external {
        bytes16 id = _collectibleId(idSeed);
        bytes16 claimId = _claimId(claimSeed);
        uint256 actor = actorSeed % _actors.length;
        address to = _actors[actor];
        uint256 tokenId = collectibles.tokenIdOf(id, claimId);

        // The single claim reverts where a batch would skip.
        bytes memory expected;
        if (!created[id]) expected = abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, id);
        else if (mintCount[tokenId] != 0) {
            expected = abi.encodeWithSelector(ICollectibles.ClaimAlreadyMinted.selector, id, claimId);
        } else if (modelClaimed[id] >= modelTotal[id]) {
            expected = abi.encodeWithSelector(ICollectibles.CollectibleSoldOut.selector, id, modelTotal[id]);
        } else if (actor == NO_HOOK || actor == REVERTS || actor == WRONG_ANSWER) {
            expected = abi.encodeWithSelector(IERC1155Errors.ERC1155InvalidReceiver.selector, to);
        } else if (actor == REVERTS_WITH_MESSAGE) {
            expected = abi.encodeWithSignature("Error(string)", "ERC1155ReceiverMock: reverting");
        } else if (actor == GAS_BURNER) {
            expected = abi.encodeWithSelector(ICollectibles.ReceiverGasExceeded.selector, to, HOOK_GAS_BUDGET);
        }

        Expected[] memory events = new Expected[](2);
        uint256 count = 0;
        _predictedDisarm = false;
        if (expected.length == 0) {
            uint64[] memory claimed = _claimedCounts();
            uint256[] memory mintedNow = new uint256[](2);
            uint256 mintedCount;
            (count, mintedCount) = _expectMint(events, count, claimed, mintedNow, 0, tokenId, to);
            if (actor == REENTRANT) {
                bool armed = _armed;
                (count,) = _expectReentry(events, count, claimed, mintedNow, mintedCount);
                _predictedDisarm = armed && !_armed;
                _armed = armed;
            }
        }

        vm.recordLogs();
        try collectibles.claim(id, claimId, to) returns (uint256 minted) {
            _expectSuccess(expected);
            if (minted != tokenId) ++mismatches;
            _checkAndApply(events, count);
        } catch (bytes memory reason) {
            _expectFailure(expected, reason);
            vm.getRecordedLogs();
            _predictedDisarm = false;
        }
    }

    function claimBatch(uint256 seed, uint256 sizeSeed) external {
        uint256 size = 1 + (sizeSeed % 8);
        bytes16[] memory ids = new bytes16[](size);
        bytes16[] memory claimIds = new bytes16[](size);
        uint256[] memory kinds = new uint256[](size);
        for (uint256 i = 0; i < size; ++i) {
            uint256 s = uint256(keccak256(abi.encode(seed, i)));
            // Mostly the same collectible as the claim before, so batches hold runs of one collectible.
            ids[i] = i > 0 && s % 4 != 0 ? ids[i - 1] : _collectibleId(s >> 8);
            claimIds[i] = _claimId(s >> 64);
            kinds[i] = (s >> 128) % _actors.length;
        }
        (bytes memory expected, Expected[] memory events, uint256 count) = _predictBatch(ids, claimIds, kinds);

        ICollectibles.ClaimRun[] memory runs = _runs(ids, claimIds, kinds);
        vm.recordLogs();
        try collectibles.claimBatch(runs) {
            _expectSuccess(expected);
            _checkAndApply(events, count);
        } catch (bytes memory reason) {
            _expectFailure(expected, reason);
            vm.getRecordedLogs();
            _predictedDisarm = false;
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
        address to = _actors[toSeed % TRANSFER_TARGETS];
        uint256 value = valueSeed % 5 == 0 ? valueSeed % 3 : 1;

        bool authorised = caller == from || modelApproved[from][caller];
        uint256 balance = holder == from ? 1 : 0;
        bytes memory expected;
        if (!authorised) {
            expected = abi.encodeWithSelector(IERC1155Errors.ERC1155MissingApprovalForAll.selector, caller, from);
        } else if (value > balance) {
            expected =
                abi.encodeWithSelector(IERC1155Errors.ERC1155InsufficientBalance.selector, from, balance, value, tokenId);
        } else if (to == _actors[NO_HOOK]) {
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

    function refusedTokens() external view returns (uint256[] memory) {
        return _refused;
    }

    function actors() external view returns (address[] memory) {
        return _actors;
    }

    // ---------------------------------------------------------------- prediction

    /// @dev The revert a batch must produce (empty when it must succeed) and, when it succeeds,
    /// the mint and skip events it must emit in order, applying the contract's rules run by run:
    /// an unknown collectible reverts the batch; per claim, a claim id minted before is skipped,
    /// then one with no edition left, then a refusing receiver or a gas burner; any other receiver
    /// is minted the next edition, and the re-entrant receiver, when armed, mints its own claim
    /// right after (its events come before the batch's next ones).
    function _predictBatch(bytes16[] memory ids, bytes16[] memory claimIds, uint256[] memory kinds)
        private
        returns (bytes memory expected, Expected[] memory events, uint256 count)
    {
        events = new Expected[](ids.length * 2);
        uint64[] memory claimed = _claimedCounts();
        uint256[] memory mintedNow = new uint256[](ids.length * 2);
        uint256 mintedCount = 0;
        bool armed = _armed;
        for (uint256 i = 0; i < ids.length; ++i) {
            if (!created[ids[i]]) {
                _armed = armed;
                _predictedDisarm = false;
                return (abi.encodeWithSelector(ICollectibles.UnknownCollectible.selector, ids[i]), events, 0);
            }
            uint256 tokenId = collectibles.tokenIdOf(ids[i], claimIds[i]);
            address to = _actors[kinds[i]];
            uint256 pool = _poolIndex(ids[i]);
            if (mintCount[tokenId] != 0 || _contains(mintedNow, mintedCount, tokenId)) {
                count = _expectSkip(events, count, tokenId, to, uint8(ICollectibles.SkipReason.AlreadyMinted));
            } else if (claimed[pool] >= modelTotal[ids[i]]) {
                count = _expectSkip(events, count, tokenId, to, uint8(ICollectibles.SkipReason.SoldOut));
            } else if (kinds[i] >= NO_HOOK && kinds[i] <= WRONG_ANSWER) {
                count = _expectSkip(events, count, tokenId, to, uint8(ICollectibles.SkipReason.ReceiverRefused));
            } else if (kinds[i] == GAS_BURNER) {
                count = _expectSkip(events, count, tokenId, to, uint8(ICollectibles.SkipReason.ReceiverGasExceeded));
            } else {
                (count, mintedCount) = _expectMint(events, count, claimed, mintedNow, mintedCount, tokenId, to);
                if (kinds[i] == REENTRANT) {
                    (count, mintedCount) = _expectReentry(events, count, claimed, mintedNow, mintedCount);
                }
            }
        }
        _predictedDisarm = armed && !_armed;
        _armed = armed;
    }

    /// @dev The armed re-entrant receiver's hook claims once (with `claim`, so it fails rather than
    /// skips), then disarms whatever the outcome.
    function _expectReentry(
        Expected[] memory events,
        uint256 count,
        uint64[] memory claimed,
        uint256[] memory mintedNow,
        uint256 mintedCount
    ) private returns (uint256, uint256) {
        if (!_armed) return (count, mintedCount);
        _armed = false;
        bytes16 id = _armedCollectible;
        if (!created[id]) return (count, mintedCount);
        uint256 tokenId = collectibles.tokenIdOf(id, _armedClaim);
        if (mintCount[tokenId] != 0 || _contains(mintedNow, mintedCount, tokenId)) return (count, mintedCount);
        if (claimed[_poolIndex(id)] >= modelTotal[id]) return (count, mintedCount);
        return _expectMint(events, count, claimed, mintedNow, mintedCount, tokenId, _armedTo);
    }

    function _expectMint(
        Expected[] memory events,
        uint256 count,
        uint64[] memory claimed,
        uint256[] memory mintedNow,
        uint256 mintedCount,
        uint256 tokenId,
        address to
    ) private pure returns (uint256, uint256) {
        uint256 pool = _poolIndex(bytes16(uint128(tokenId >> 128)));
        ++claimed[pool];
        events[count] = Expected(Kind.Mint, 0, to, tokenId, claimed[pool]);
        mintedNow[mintedCount] = tokenId;
        return (count + 1, mintedCount + 1);
    }

    function _expectSkip(Expected[] memory events, uint256 count, uint256 tokenId, address to, uint8 reason)
        private
        pure
        returns (uint256)
    {
        events[count] = Expected(Kind.Skip, reason, to, tokenId, 0);
        return count + 1;
    }

    /// @dev Compares the recorded mint and skip events with the expected ones, then applies them
    /// to the model (holder, edition, counts, refusals).
    function _checkAndApply(Expected[] memory events, uint256 count) private {
        Expected[] memory actual = _emitted(vm.getRecordedLogs());
        if (actual.length != count) ++eventMismatches;
        for (uint256 i = 0; i < count && i < actual.length; ++i) {
            Expected memory e = events[i];
            Expected memory a = actual[i];
            if (a.kind != e.kind || a.tokenId != e.tokenId || a.to != e.to || a.reason != e.reason) ++eventMismatches;
        }
        if (_predictedDisarm) {
            _armed = false;
            _predictedDisarm = false;
        }
        for (uint256 i = 0; i < count; ++i) {
            Expected memory e = events[i];
            bytes16 id = bytes16(uint128(e.tokenId >> 128));
            if (e.kind == Kind.Skip) {
                if (e.reason <= uint8(ICollectibles.SkipReason.ReceiverGasExceeded)) {
                    ++refusals;
                    if (refusedBy[e.tokenId] == address(0)) _refused.push(e.tokenId);
                    refusedBy[e.tokenId] = e.to;
                }
                continue;
            }
            ++mintCount[e.tokenId];
            ++modelClaimed[id];
            modelHolder[e.tokenId] = e.to;
            modelEdition[e.tokenId] = e.edition;
            collectibleOf[e.tokenId] = id;
            uriHash[e.tokenId] = keccak256(bytes(collectibles.uri(e.tokenId)));
            if (collectibles.editionOf(e.tokenId) != e.edition) ++mismatches;
            if (collectibles.holderOf(e.tokenId) != e.to) ++mismatches;
            _minted.push(e.tokenId);
            if (e.to == _armedTo && id == _armedCollectible && uint128(e.tokenId) == uint128(_armedClaim)) {
                ++reentrantMints;
            }
        }
    }

    /// @dev The mints and skips a receipt would show, in order. The recorder also keeps the logs
    /// of a call that reverted; a refused mint's self-call is one, so its `TransferSingle` and
    /// everything after it (its hook's doings) are dropped when its `ClaimSkipped` follows.
    function _emitted(Vm.Log[] memory logs) private view returns (Expected[] memory list) {
        list = new Expected[](logs.length);
        uint256 length = 0;
        for (uint256 i = 0; i < logs.length; ++i) {
            Vm.Log memory log = logs[i];
            if (log.emitter != address(collectibles)) continue;
            bytes32 topic = log.topics[0];
            if (topic == IERC1155.TransferSingle.selector && log.topics[2] == bytes32(0)) {
                (uint256 id, uint256 value) = abi.decode(log.data, (uint256, uint256));
                address to = address(uint160(uint256(log.topics[3])));
                list[length++] = Expected(Kind.Mint, 0, value == 1 ? to : address(0), id, 0);
            } else if (topic == ICollectibles.ClaimSkipped.selector) {
                uint256 id = (uint256(log.topics[1]) & ~uint256(type(uint128).max)) | (uint256(log.topics[2]) >> 128);
                uint8 reason = abi.decode(log.data, (uint8));
                if (reason <= uint8(ICollectibles.SkipReason.ReceiverGasExceeded)) {
                    for (uint256 j = length; j > 0; --j) {
                        if (list[j - 1].kind == Kind.Mint && list[j - 1].tokenId == id) {
                            length = j - 1;
                            break;
                        }
                    }
                }
                list[length++] = Expected(Kind.Skip, reason, address(uint160(uint256(log.topics[3]))), id, 0);
            }
        }
        // Shortens the array to the entries written: the one way to size a memory array after the fact.
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            mstore(list, length)
        }
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

    function _runs(bytes16[] memory ids, bytes16[] memory claimIds, uint256[] memory kinds)
        private
        view
        returns (ICollectibles.ClaimRun[] memory runs)
    {
        uint256 count = 0;
        for (uint256 i = 0; i < ids.length; ++i) {
            if (i == 0 || ids[i] != ids[i - 1]) ++count;
        }
        runs = new ICollectibles.ClaimRun[](count);
        uint256 r = 0;
        for (uint256 i = 0; i < ids.length; ++i) {
            if (i > 0 && ids[i] != ids[i - 1]) ++r;
            runs[r].collectibleId = ids[i];
            runs[r].claims = abi.encodePacked(runs[r].claims, claimIds[i], _actors[kinds[i]]);
        }
    }

    function _claimedCounts() private view returns (uint64[] memory claimed) {
        claimed = new uint64[](COLLECTIBLE_POOL);
        for (uint256 i = 0; i < COLLECTIBLE_POOL; ++i) {
            claimed[i] = modelClaimed[_collectibleId(i)];
        }
    }

    function _poolIndex(bytes16 id) private pure returns (uint256) {
        for (uint256 i = 0; i < COLLECTIBLE_POOL; ++i) {
            if (_collectibleId(i) == id) return i;
        }
        revert("not a pool id");
    }

    function _contains(uint256[] memory list, uint256 length, uint256 value) private pure returns (bool) {
        for (uint256 i = 0; i < length; ++i) {
            if (list[i] == value) return true;
        }
        return false;
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
