import { arcadeVaultAbi } from '@coinop/contracts';
import {
  CoinopError,
  checkWithdrawalAmount,
  oneWithdrawalLimitUnits,
  mayWithdraw,
  parseHst,
  withdrawalReserveTransfer,
  type Clock,
  type Ids,
} from '@coinop/core';
import { getAddress, isAddress, zeroAddress, type PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';
import { checkpointsOfVault } from '../store/chain-checkpoints.js';
import {
  findWithdrawal,
  findWithdrawalByKey,
  insertWithdrawal,
  type WithdrawalRecord,
} from '../store/chain-withdrawals.js';
import type { Db } from '../store/db.js';
import { applyTransfers, lockAccount } from '../store/ledger.js';
import { createChainClient } from './rpc.js';

/**
 * A withdrawal requested: checked (amount, address, the vault's per-withdrawal limit), then, in
 * one database transaction, recorded as queued and reserved by a pending transfer from the
 * account to the vault's, which the ledger refuses beyond the available balance. The sender
 * (withdrawals.ts) pays it later.
 */

/** How long the vault's limits are trusted: the admin changes them rarely. */
const LIMIT_CACHE_MS = 60_000;
/** Idempotency keys are a client's ids: short text. */
export const IDEMPOTENCY_KEY_MAX_CHARS = 200;

export interface WithdrawalInput {
  readonly accountId: string;
  readonly amount: unknown;
  readonly to: unknown;
  readonly idempotencyKey: string | null;
}

export class WithdrawalRequests {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #chain: ChainConfig | null;
  readonly #client: PublicClient | null;
  #maxWithdrawal: { units: bigint; readAt: number } | null = null;

  constructor(deps: {
    db: Db;
    clock: Clock;
    ids: Ids;
    chain: ChainConfig | null;
    client?: PublicClient | undefined;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#chain = deps.chain;
    this.#client = deps.chain ? (deps.client ?? createChainClient(deps.chain)) : null;
  }

  /**
   * Records and reserves a withdrawal; with an idempotency key already used by this account for
   * the same amount and address, answers that withdrawal (`replayed`), for others refuses it.
   */
  async request(
    input: WithdrawalInput,
  ): Promise<{ withdrawal: WithdrawalRecord; replayed: boolean }> {
    const chain = this.#requireChain();
    const amountUnits = parseHst(input.amount, 'amount');
    const to = parseWithdrawalAddress(input.to);
    const key = input.idempotencyKey;
    if (key !== null && (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_CHARS)) {
      throw new CoinopError(
        'validation_failed',
        `the Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} characters`,
        { details: { field: 'idempotency-key' } },
      );
    }
    checkWithdrawalAmount(amountUnits, null);
    const checkpoint = (await checkpointsOfVault(this.#db, chain.vaultAddress))[0];
    if (!checkpoint) {
      throw new CoinopError(
        'chain_not_ready',
        'the chain has not answered since this arcade started; try again shortly',
      );
    }
    return this.#db.transaction(async (tx) => {
      // The account's row lock orders this account's requests, so a key is checked once.
      const account = await lockAccount(tx, input.accountId);
      if (!account) {
        throw new CoinopError('account_not_found', `account ${input.accountId} does not exist`, {
          details: { accountId: input.accountId },
        });
      }
      if (key !== null) {
        const earlier = await findWithdrawalByKey(tx, account.id, key);
        if (earlier) {
          if (earlier.amountUnits === amountUnits && earlier.toAddress === to.toLowerCase()) {
            return { withdrawal: earlier, replayed: true };
          }
          throw new CoinopError(
            'idempotency_key_reused',
            `Idempotency-Key ${key} was already used for a different withdrawal`,
            { details: { idempotencyKey: key } },
          );
        }
      }
      if (!mayWithdraw(account.kind)) {
        throw new CoinopError(
          'validation_failed',
          `account ${account.id} is the ${account.kind} account; a player or developer withdraws`,
          { details: { field: 'accountId' } },
        );
      }
      checkWithdrawalAmount(amountUnits, await this.maxWithdrawalUnits());
      const now = this.#clock.now();
      const id = this.#ids.next();
      const withdrawal = await insertWithdrawal(
        tx,
        {
          chainId: checkpoint.chainId,
          vaultAddress: checkpoint.vaultAddress,
          id,
          accountId: account.id,
          toAddress: to,
          amountUnits,
          idempotencyKey: key,
        },
        now,
      );
      await applyTransfers(
        tx,
        [
          withdrawalReserveTransfer({
            id,
            accountId: account.id,
            vaultAccountId: checkpoint.accountId,
            amountUnits,
          }),
        ],
        now,
      );
      return { withdrawal, replayed: false };
    });
  }

  /** One withdrawal of `accountId` (another account's is not found, so ids cannot be probed). */
  async get(accountId: string, id: string): Promise<WithdrawalRecord> {
    this.#requireChain();
    const found = await findWithdrawal(this.#db, id);
    if (!found || found.accountId !== accountId) {
      throw new CoinopError('withdrawal_not_found', `no withdrawal ${id} of this account`, {
        details: { withdrawalId: id },
      });
    }
    return found;
  }

  /**
   * The most the vault pays in one withdrawal: its `maxWithdrawal`, or its `dailyWithdrawalLimit`
   * where that is lower (a withdrawal above the day's limit would never fit a day). Read at most once a minute; null when the chain
   * does not answer (the request is taken, and the sender refuses it later if it is over).
   */
  async maxWithdrawalUnits(): Promise<bigint | null> {
    const chain = this.#requireChain();
    const client = this.#client;
    if (!client) throw new TypeError('chain mode without a chain client');
    const now = this.#clock.now().getTime();
    if (this.#maxWithdrawal && now - this.#maxWithdrawal.readAt < LIMIT_CACHE_MS) {
      return this.#maxWithdrawal.units;
    }
    try {
      const read = (functionName: 'maxWithdrawal' | 'dailyWithdrawalLimit') =>
        client.readContract({ address: chain.vaultAddress, abi: arcadeVaultAbi, functionName });
      const [max, daily] = await Promise.all([read('maxWithdrawal'), read('dailyWithdrawalLimit')]);
      const units = oneWithdrawalLimitUnits(max, daily);
      this.#maxWithdrawal = { units, readAt: now };
      return units;
    } catch {
      return this.#maxWithdrawal?.units ?? null;
    }
  }

  #requireChain(): ChainConfig {
    if (!this.#chain) {
      throw new CoinopError(
        'chain_mode_off',
        'this arcade is not in chain mode: its HST cannot be withdrawn to a wallet',
      );
    }
    return this.#chain;
  }
}

/** A wallet address, checksummed: 0x and 40 hex digits (mixed case must be a valid checksum). */
export function parseWithdrawalAddress(value: unknown): `0x${string}` {
  const refuse = (why: string) =>
    new CoinopError('validation_failed', `to ${why}`, { details: { field: 'to' } });
  if (typeof value !== 'string') throw refuse('must be a wallet address (0x and 40 hex digits)');
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw refuse(
      `must be a wallet address (0x and 40 hex digits), got ${JSON.stringify(value.slice(0, 60))}`,
    );
  }
  const digits = value.slice(2);
  const oneCase = digits === digits.toLowerCase() || digits === digits.toUpperCase();
  // Mixed case is an EIP-55 checksum: a typo in it is caught here rather than paid to.
  if (!oneCase && !isAddress(value, { strict: true })) {
    throw refuse(`has a wrong checksum (${value}): copy the address again`);
  }
  if (value.toLowerCase() === zeroAddress) throw refuse('must not be the zero address');
  return getAddress(value);
}
