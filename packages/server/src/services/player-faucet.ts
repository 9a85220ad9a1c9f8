import { CoinopError, availableUnits, wholeHstToUnits, type Units } from '@coinop/core';
import { formatHst, type FaucetGrant, type WalletFaucetGrant } from '@coinop/protocol';
import { getAddress } from 'viem';
import type { DevChainFunds } from '../dev-chain/dev-chain-funds.js';
import { findPlayer } from '../store/players.js';
import { mintHst } from './admin-hst.js';
import type { ArcadeServices } from './arcade-services.js';

/** The faucet stops granting once a player holds this many grants' worth. */
export const FAUCET_CEILING_GRANTS = 10n;

/** The development faucet a signed-in player asks for test HST (`POST /player/faucet`). */
export class PlayerFaucet {
  readonly #arcade: ArcadeServices;
  /** The wallet grant in progress, which the next waits for. */
  #walletGrants: Promise<unknown> = Promise.resolve();

  constructor(arcade: ArcadeServices) {
    this.#arcade = arcade;
  }

  /**
   * Grants test HST in a development arcade, up to a ceiling: to the arcade balance, or on a dev
   * chain to the player's wallet (with a little ETH for gas), from which the player deposits it.
   */
  async grant(playerId: string): Promise<FaucetGrant> {
    const { faucetHst } = this.#arcade.config;
    if (faucetHst === 0) {
      throw new CoinopError('faucet_disabled', 'this arcade has no faucet: it is not a dev arcade');
    }
    const grant = wholeHstToUnits(faucetHst);
    const ceiling = grant * FAUCET_CEILING_GRANTS;
    const funds = this.#arcade.devChainFunds;
    if (funds) {
      // One grant at a time in this process (a dev chain has one): the ceiling check and the
      // mint then cannot interleave with another grant's.
      const granted = this.#walletGrants.then(() =>
        this.#walletFaucet(funds, playerId, grant, ceiling),
      );
      this.#walletGrants = granted.catch(() => undefined);
      return granted;
    }
    // Checked with the player's account locked, so concurrent calls cannot all pass it.
    const minted = await mintHst(this.#arcade, { id: playerId, amountUnits: grant }, (account) => {
      const balance = availableUnits(account);
      if (balance >= ceiling) {
        throw new CoinopError(
          'faucet_limit_reached',
          `the faucet tops up players holding less than ${formatHst(ceiling)} HST; you hold ${formatHst(balance)}`,
        );
      }
    });
    return {
      destination: 'ledger',
      transferId: minted.transferId,
      balance: formatHst(minted.balanceUnits),
    };
  }

  async #walletFaucet(
    funds: DevChainFunds,
    playerId: string,
    grant: Units,
    ceiling: Units,
  ): Promise<WalletFaucetGrant> {
    const player = await findPlayer(this.#arcade.db, playerId);
    if (!player?.wallet) {
      throw new CoinopError(
        'faucet_disabled',
        `the faucet sends test HST to the player's wallet, and player ${playerId} has none`,
      );
    }
    const wallet = getAddress(player.wallet);
    const held = await funds.walletHst(wallet);
    if (held >= ceiling) {
      throw new CoinopError(
        'faucet_limit_reached',
        `the faucet tops up wallets holding less than ${formatHst(ceiling)} HST; ` +
          `${wallet} holds ${formatHst(held)}`,
      );
    }
    const txHash = await funds.mint(wallet, grant);
    await funds.topUpGas(wallet);
    return {
      destination: 'wallet',
      wallet,
      txHash,
      amount: formatHst(grant),
      walletBalance: formatHst(await funds.walletHst(wallet)),
    };
  }
}
