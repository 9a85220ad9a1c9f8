// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {LowLevelCall} from "@openzeppelin/contracts/utils/LowLevelCall.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @title ArcadeVault, the arcade's HST on chain
/// @notice Holds the HST behind coinop's ledger. Players deposit to a coinop account and lock
/// plays from their wallet; the operator pays withdrawals (each id once, within limits) and
/// settles or refunds locked plays. Open play locks are never available to withdrawals, and a
/// player reclaims an open lock after `lockTimeout` without the operator.
/// @dev coinop ids are UUIDs, passed as bytes16. Amounts are HST base units (10^8 per HST).
contract ArcadeVault is AccessControl, Pausable, ReentrancyGuardTransient, EIP712 {
    using SafeERC20 for IERC20;

    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");
    bytes32 public constant WITHDRAWAL_TYPEHASH =
        keccak256("Withdrawal(bytes16 id,address to,uint256 amount)");
    /// @notice The admin may not set a lock timeout longer than this, so raising it can never
    /// keep a player's open lock from them for longer.
    uint256 public constant MAX_LOCK_TIMEOUT = 30 days;

    /// @notice An operator's instruction to pay `amount` to `to`, paid at most once per `id`.
    struct Withdrawal {
        bytes16 id;
        address to;
        uint256 amount;
    }

    struct Payout {
        address to;
        uint256 amount;
    }

    /// @notice The payouts of one locked play (leaders, developer, arcade), summing to its lock.
    struct Settlement {
        bytes16 playId;
        Payout[] payouts;
    }

    enum PlayState {
        None,
        Locked,
        Settled,
        Refunded,
        Reclaimed
    }

    struct PlayLock {
        address player;
        uint64 lockedAt;
        PlayState state;
        uint256 amount;
    }

    IERC20 public immutable token;

    uint256 public maxWithdrawal;
    uint256 public dailyWithdrawalLimit;
    uint256 public lockTimeout;
    /// @notice The sum of open play locks: HST that withdrawals may not touch.
    uint256 public lockedTotal;

    // The UTC day (block.timestamp / 1 days) that `_withdrawnOnDay` counts.
    uint256 private _withdrawalDay;
    uint256 private _withdrawnOnDay;
    mapping(bytes16 id => bool) private _paid;
    mapping(bytes16 playId => PlayLock) private _plays;

    event Deposited(bytes16 indexed account, address indexed from, uint256 amount);
    event Withdrawn(bytes16 indexed id, address indexed to, uint256 amount);
    event WithdrawalSkipped(bytes16 indexed id);
    event LimitsChanged(uint256 maxWithdrawal, uint256 dailyWithdrawalLimit);
    event LockTimeoutChanged(uint256 lockTimeout);
    event PlayLocked(bytes16 indexed playId, address indexed player, uint256 amount);
    event PlaySettled(bytes16 indexed playId, address indexed player, uint256 amount);
    event PlayPaid(bytes16 indexed playId, address indexed to, uint256 amount);
    event PlayRefunded(bytes16 indexed playId, address indexed player, uint256 amount);
    event PlayReclaimed(bytes16 indexed playId, address indexed player, uint256 amount);
    event SettlementSkipped(bytes16 indexed playId, PlayState state);
    event RefundSkipped(bytes16 indexed playId, PlayState state);

    error ZeroAddress();
    error ZeroAmount();
    error ZeroId();
    error WithdrawalAlreadyPaid(bytes16 id);
    error WithdrawalAboveMax(bytes16 id, uint256 amount, uint256 maxWithdrawal);
    error DailyWithdrawalLimitExceeded(
        bytes16 id,
        uint256 amount,
        uint256 withdrawnToday,
        uint256 dailyWithdrawalLimit
    );
    error InsufficientUnlockedBalance(bytes16 id, uint256 amount, uint256 unlockedBalance);
    error InvalidSignature();
    error SignerNotOperator(address signer);
    error PlayAlreadyExists(bytes16 playId);
    error PlayNotFound(bytes16 playId);
    error PlayNotLocked(bytes16 playId, PlayState state);
    error NotPlayOwner(bytes16 playId, address player);
    error LockNotExpired(bytes16 playId, uint256 reclaimableAt);
    error PayoutSumMismatch(bytes16 playId, uint256 lockedAmount, uint256 payoutSum);
    error InvalidLockTimeout(uint256 lockTimeout, uint256 maxLockTimeout);

    /// @param admin Holds DEFAULT_ADMIN_ROLE (limits, lock timeout, roles) and PAUSER_ROLE.
    /// @param operator Holds OPERATOR_ROLE (withdrawals, settlements, refunds).
    constructor(
        IERC20 token_,
        address admin,
        address operator,
        uint256 maxWithdrawal_,
        uint256 dailyWithdrawalLimit_,
        uint256 lockTimeout_
    ) EIP712("coinop ArcadeVault", "1") {
        if (address(token_) == address(0) || admin == address(0) || operator == address(0)) {
            revert ZeroAddress();
        }
        token = token_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(PAUSER_ROLE, admin);
        _grantRole(OPERATOR_ROLE, operator);
        _setLimits(maxWithdrawal_, dailyWithdrawalLimit_);
        _setLockTimeout(lockTimeout_);
    }

    // --- Deposits ------------------------------------------------------------------------------

    /// @notice Credits `amount` to the coinop account `account`, pulled from the sender.
    function deposit(uint256 amount, bytes16 account) external whenNotPaused nonReentrant {
        _deposit(amount, account);
    }

    /// @notice `deposit` with an EIP-2612 permit for this vault, so a deposit is one signature.
    function depositWithPermit(
        uint256 amount,
        bytes16 account,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused nonReentrant {
        _permit(amount, deadline, v, r, s);
        _deposit(amount, account);
    }

    // --- Withdrawals ---------------------------------------------------------------------------

    /// @notice Pays a batch of operator instructions. An id already paid (a batch re-sent after
    /// a crash, or the same id twice in one batch) is skipped with `WithdrawalSkipped`; any
    /// other invalid item, or one over a limit, reverts the whole batch.
    function withdrawBatch(
        Withdrawal[] calldata withdrawals
    ) external onlyRole(OPERATOR_ROLE) whenNotPaused nonReentrant {
        for (uint256 i = 0; i < withdrawals.length; ++i) {
            Withdrawal calldata w = withdrawals[i];
            if (_paid[w.id]) {
                emit WithdrawalSkipped(w.id);
                continue;
            }
            _withdraw(w);
        }
    }

    /// @notice Pays one instruction signed (EIP-712) by a current holder of OPERATOR_ROLE. Anyone
    /// may submit it, typically the recipient paying the gas.
    function withdraw(
        Withdrawal calldata withdrawal,
        bytes calldata operatorSignature
    ) external whenNotPaused nonReentrant {
        if (_paid[withdrawal.id]) revert WithdrawalAlreadyPaid(withdrawal.id);
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(
            hashWithdrawal(withdrawal),
            operatorSignature
        );
        if (err != ECDSA.RecoverError.NoError) revert InvalidSignature();
        if (!hasRole(OPERATOR_ROLE, signer)) revert SignerNotOperator(signer);
        _withdraw(withdrawal);
    }

    /// @notice The EIP-712 digest an operator signs for `withdraw`.
    function hashWithdrawal(Withdrawal calldata withdrawal) public view returns (bytes32) {
        return
            _hashTypedDataV4(
                keccak256(
                    abi.encode(
                        WITHDRAWAL_TYPEHASH,
                        withdrawal.id,
                        withdrawal.to,
                        withdrawal.amount
                    )
                )
            );
    }

    function isPaid(bytes16 id) external view returns (bool) {
        return _paid[id];
    }

    /// @notice What withdrawals have paid so far in the current UTC day.
    function withdrawnToday() public view returns (uint256) {
        return _withdrawalDay == block.timestamp / 1 days ? _withdrawnOnDay : 0;
    }

    /// @notice HST that withdrawals may pay: the vault's balance less the open play locks.
    function unlockedBalance() public view returns (uint256) {
        uint256 balance = token.balanceOf(address(this));
        return balance > lockedTotal ? balance - lockedTotal : 0;
    }

    // --- Plays locked from the wallet ----------------------------------------------------------

    /// @notice Locks a play's cost from the sender's wallet under the coinop play id `playId`.
    function lockPlay(bytes16 playId, uint256 amount) external whenNotPaused nonReentrant {
        _lockPlay(playId, amount);
    }

    /// @notice `lockPlay` with an EIP-2612 permit for this vault, so a lock is one signature.
    function lockPlayWithPermit(
        bytes16 playId,
        uint256 amount,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external whenNotPaused nonReentrant {
        _permit(amount, deadline, v, r, s);
        _lockPlay(playId, amount);
    }

    /// @notice Pays each settlement's payouts from its play's lock. A play already settled,
    /// refunded or reclaimed is skipped with `SettlementSkipped` (a batch re-sent after a crash,
    /// or a player who reclaimed first); an unknown play, or payouts that do not sum to the lock
    /// exactly, revert the whole batch.
    function settleBatch(
        Settlement[] calldata settlements
    ) external onlyRole(OPERATOR_ROLE) whenNotPaused nonReentrant {
        for (uint256 i = 0; i < settlements.length; ++i) {
            Settlement calldata settlement = settlements[i];
            PlayLock storage lock = _existingLock(settlement.playId);
            if (lock.state != PlayState.Locked) {
                emit SettlementSkipped(settlement.playId, lock.state);
                continue;
            }
            uint256 sum = 0;
            for (uint256 j = 0; j < settlement.payouts.length; ++j) {
                Payout calldata payout = settlement.payouts[j];
                if (payout.to == address(0)) revert ZeroAddress();
                if (payout.amount == 0) revert ZeroAmount();
                sum += payout.amount;
            }
            uint256 amount = lock.amount;
            if (sum != amount) revert PayoutSumMismatch(settlement.playId, amount, sum);

            lock.state = PlayState.Settled;
            lockedTotal -= amount;
            emit PlaySettled(settlement.playId, lock.player, amount);
            for (uint256 j = 0; j < settlement.payouts.length; ++j) {
                Payout calldata payout = settlement.payouts[j];
                token.safeTransfer(payout.to, payout.amount);
                emit PlayPaid(settlement.playId, payout.to, payout.amount);
            }
        }
    }

    /// @notice Returns open locks to their players. Open while paused, so a pause never traps a
    /// player's HST. A play already closed is skipped with `RefundSkipped`; an unknown play
    /// reverts the whole batch.
    function refund(bytes16[] calldata playIds) external onlyRole(OPERATOR_ROLE) nonReentrant {
        for (uint256 i = 0; i < playIds.length; ++i) {
            PlayLock storage lock = _existingLock(playIds[i]);
            if (lock.state != PlayState.Locked) {
                emit RefundSkipped(playIds[i], lock.state);
                continue;
            }
            _release(lock, PlayState.Refunded);
            emit PlayRefunded(playIds[i], lock.player, lock.amount);
        }
    }

    /// @notice A player takes back their own open lock once `lockTimeout` has passed since it
    /// was locked, without the operator. Open while paused.
    function reclaim(bytes16 playId) external nonReentrant {
        PlayLock storage lock = _existingLock(playId);
        if (lock.state != PlayState.Locked) revert PlayNotLocked(playId, lock.state);
        if (lock.player != msg.sender) revert NotPlayOwner(playId, lock.player);
        uint256 reclaimableAt = uint256(lock.lockedAt) + lockTimeout;
        if (block.timestamp < reclaimableAt) revert LockNotExpired(playId, reclaimableAt);
        _release(lock, PlayState.Reclaimed);
        emit PlayReclaimed(playId, lock.player, lock.amount);
    }

    function playLock(bytes16 playId) external view returns (PlayLock memory) {
        return _plays[playId];
    }

    // --- Administration ------------------------------------------------------------------------

    /// @notice Sets the most one withdrawal may pay and the most all withdrawals may pay in one
    /// UTC day. Lowering the daily limit below what was paid today stops withdrawals until the
    /// next day.
    function setLimits(
        uint256 maxWithdrawal_,
        uint256 dailyWithdrawalLimit_
    ) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setLimits(maxWithdrawal_, dailyWithdrawalLimit_);
    }

    /// @notice Sets how long after locking a player may reclaim an open lock; applies to the
    /// locks already open too.
    function setLockTimeout(uint256 lockTimeout_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setLockTimeout(lockTimeout_);
    }

    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }

    // --- Internals -----------------------------------------------------------------------------

    function _deposit(uint256 amount, bytes16 account) private {
        if (amount == 0) revert ZeroAmount();
        if (account == bytes16(0)) revert ZeroId();
        token.safeTransferFrom(msg.sender, address(this), amount);
        emit Deposited(account, msg.sender, amount);
    }

    function _withdraw(Withdrawal calldata w) private {
        if (w.id == bytes16(0)) revert ZeroId();
        if (w.to == address(0)) revert ZeroAddress();
        if (w.amount == 0) revert ZeroAmount();
        if (w.amount > maxWithdrawal) revert WithdrawalAboveMax(w.id, w.amount, maxWithdrawal);
        uint256 today = block.timestamp / 1 days;
        uint256 spent = withdrawnToday();
        // Written so that a daily limit lowered below today's total cannot underflow.
        if (spent > dailyWithdrawalLimit || w.amount > dailyWithdrawalLimit - spent) {
            revert DailyWithdrawalLimitExceeded(w.id, w.amount, spent, dailyWithdrawalLimit);
        }
        uint256 unlocked = unlockedBalance();
        if (w.amount > unlocked) revert InsufficientUnlockedBalance(w.id, w.amount, unlocked);

        _paid[w.id] = true;
        _withdrawalDay = today;
        _withdrawnOnDay = spent + w.amount;
        token.safeTransfer(w.to, w.amount);
        emit Withdrawn(w.id, w.to, w.amount);
    }

    function _lockPlay(bytes16 playId, uint256 amount) private {
        if (playId == bytes16(0)) revert ZeroId();
        if (amount == 0) revert ZeroAmount();
        if (_plays[playId].state != PlayState.None) revert PlayAlreadyExists(playId);
        _plays[playId] = PlayLock({
            player: msg.sender,
            lockedAt: uint64(block.timestamp),
            state: PlayState.Locked,
            amount: amount
        });
        lockedTotal += amount;
        token.safeTransferFrom(msg.sender, address(this), amount);
        emit PlayLocked(playId, msg.sender, amount);
    }

    function _existingLock(bytes16 playId) private view returns (PlayLock storage lock) {
        lock = _plays[playId];
        if (lock.state == PlayState.None) revert PlayNotFound(playId);
    }

    function _release(PlayLock storage lock, PlayState closedAs) private {
        lock.state = closedAs;
        lockedTotal -= lock.amount;
        token.safeTransfer(lock.player, lock.amount);
    }

    /// @dev Anyone can submit a permit seen in the mempool before this call does, which would
    /// make a plain `permit` revert and the deposit with it. So a failed permit is tolerated when
    /// the allowance it would have set is already there, and its error is bubbled otherwise.
    function _permit(uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) private {
        try
            IERC20Permit(address(token)).permit(msg.sender, address(this), amount, deadline, v, r, s)
        {} catch (bytes memory reason) {
            if (token.allowance(msg.sender, address(this)) < amount) {
                LowLevelCall.bubbleRevert(reason);
            }
        }
    }

    function _setLimits(uint256 maxWithdrawal_, uint256 dailyWithdrawalLimit_) private {
        maxWithdrawal = maxWithdrawal_;
        dailyWithdrawalLimit = dailyWithdrawalLimit_;
        emit LimitsChanged(maxWithdrawal_, dailyWithdrawalLimit_);
    }

    function _setLockTimeout(uint256 lockTimeout_) private {
        if (lockTimeout_ == 0 || lockTimeout_ > MAX_LOCK_TIMEOUT) {
            revert InvalidLockTimeout(lockTimeout_, MAX_LOCK_TIMEOUT);
        }
        lockTimeout = lockTimeout_;
        emit LockTimeoutChanged(lockTimeout_);
    }
}
