// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title HST, the arcade's token
/// @notice An ERC-20 with 8 decimals, so one base unit on chain is one base unit in coinop's
/// ledger (1 HST = 10^8 units), and EIP-2612 permit, so a deposit or a play lock is one
/// signature. New HST is minted by holders of MINTER_ROLE; there is no cap and no burn.
contract HST is ERC20, ERC20Permit, AccessControl {
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    error ZeroAddress();

    /// @param admin Holds DEFAULT_ADMIN_ROLE (grants and revokes MINTER_ROLE) and MINTER_ROLE.
    constructor(address admin) ERC20("HST", "HST") ERC20Permit("HST") {
        if (admin == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
    }

    /// @notice The ledger's unit: 1 HST = 10^8 base units.
    function decimals() public pure override returns (uint8) {
        return 8;
    }

    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }
}
