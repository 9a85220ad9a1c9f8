import {
  CoinopError,
  availableUnits,
  formatHst,
  lockedUnits,
  type Account,
  type Units,
} from '@coinop/core';
import { UNITS_PER_HST } from '@coinop/protocol';
import { LedgerSumOutOfRange } from '../store/errors.js';
import { auditLedger, applyTransfers, findAccount, lockAccount } from '../store/ledger.js';
import { resolveAccount, WALLET_ADDRESS } from '../store/admin.js';
import { normalizeWallet } from '../store/players.js';
import type { ArcadeServices } from './arcade-services.js';
import { reconcileChainVault, type ChainReconciliationWire } from '../chain/reconciliation.js';
import { CHAIN_MODE_MINTS_NOTHING } from '../config.js';

/**
 * The operator's HST use cases behind `/admin/hst` and `coinop admin hst`: mints, balances and
 * the audit. Amounts come in as base units and go out as exact decimal strings.
 */

/** One mint above a billion HST is a typo; it also keeps totals far below bigint's limit. */
export const MAX_MINT_UNITS: Units = 1_000_000_000n * UNITS_PER_HST;

/**
 * The operator's mint (`POST /admin/hst/mints`): refused in chain mode, where the ledger's HST is
 * the vault's. A mint there is a shortfall the watcher halts on only at its next reconciliation,
 * up to a minute later, while withdrawals go on paying out of other players' HST.
 */
export async function mintHstAsOperator(
  arcade: ArcadeServices,
  input: { id: string; amountUnits: Units; transferId?: string | undefined },
): Promise<{ transferId: string; accountId: string; balanceUnits: Units }> {
  if (arcade.config.chain) {
    throw new CoinopError(
      'mint_refused_in_chain_mode',
      `mint refused: ${CHAIN_MODE_MINTS_NOTHING}. Put HST in the vault for the account instead: ` +
        'a deposit into the vault for it, or an ERC-20 transfer to the vault (recorded as ' +
        'surplus) credited with coinop admin chain credit-surplus 0xTXHASH:LOG --account ' +
        `${input.id}`,
    );
  }
  return mintHst(arcade, input);
}

/**
 * Mints `amountUnits` into the account of `id` (an account, player, developer or arcade id) as
 * one posted transfer from the mint. `transferId` makes a retry a no-op, as for any transfer.
 * Callers keep it out of chain mode: the operator's through `mintHstAsOperator`, the faucet and
 * the demo seed by their config.
 */
export async function mintHst(
  arcade: ArcadeServices,
  input: { id: string; amountUnits: Units; transferId?: string | undefined },
  /** Runs with the credited account locked, before the mint: throw to refuse it. */
  check?: (account: Account) => void,
): Promise<{ transferId: string; accountId: string; balanceUnits: Units }> {
  if (input.amountUnits <= 0n) {
    throw new CoinopError('invalid_amount', 'amount must be greater than 0', {
      details: { field: 'amount' },
    });
  }
  if (input.amountUnits > MAX_MINT_UNITS) {
    throw new CoinopError(
      'invalid_amount',
      `amount must be at most ${formatHst(MAX_MINT_UNITS)} HST per mint`,
      { details: { field: 'amount' } },
    );
  }
  const { accountId, kind } = await requireAccount(arcade, input.id);
  if (kind === 'mint' || kind === 'escrow' || kind === 'vault') {
    // Escrow only ever holds play locks; the mint cannot pay itself; a vault account moves only
    // HST that moved on chain.
    throw new CoinopError(
      'validation_failed',
      `accountId ${input.id} is the ${kind} account; mint to a player, developer or arcade`,
      { details: { field: 'accountId' } },
    );
  }
  const transferId = input.transferId ?? arcade.ids.next();
  try {
    const account = await arcade.db.transaction(async (tx) => {
      if (check) {
        const locked = await lockAccount(tx, accountId);
        if (locked) check(locked);
      }
      await applyTransfers(
        tx,
        [
          {
            id: transferId,
            kind: 'posted',
            debitAccountId: arcade.record.mintAccountId,
            creditAccountId: accountId,
            amount: input.amountUnits,
            pendingId: null,
            reason: 'mint',
            playId: null,
          },
        ],
        arcade.clock.now(),
      );
      return findAccount(tx, accountId);
    });
    if (!account) throw new Error(`account ${accountId} vanished during a mint`);
    return { transferId, accountId, balanceUnits: availableUnits(account) };
  } catch (error) {
    if (error instanceof LedgerSumOutOfRange) {
      throw new CoinopError('invalid_amount', 'amount would take the HST supply past its limit', {
        details: { field: 'amount' },
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Spendable and locked HST of the account of `id` (an account, player, developer or arcade id),
 * as exact decimal strings.
 */
export async function accountBalance(
  arcade: ArcadeServices,
  id: string,
): Promise<{ accountId: string; balance: string; pending: string }> {
  const { accountId } = await requireAccount(arcade, id);
  const account = await findAccount(arcade.db, accountId);
  if (!account) throw accountNotFound(id);
  return {
    accountId,
    balance: formatHst(availableUnits(account)),
    pending: formatHst(lockedUnits(account)),
  };
}

/** The ledger's totals, in exact decimal strings of HST (`formatHst`). */
export interface AuditReport {
  debitsPosted: string;
  creditsPosted: string;
  debitsPending: string;
  creditsPending: string;
  minted: string;
  vaultHeld: string;
  balanced: boolean;
  /**
   * In chain mode only (always true there): this audit is of the ledger alone unless `chain` is
   * asked for, and HST minted is a shortfall no token backs.
   */
  chainMode?: true;
  /** With `chain`: the vault on chain against the ledger, at one block. */
  chain?: ChainReconciliationWire;
}

/**
 * The ledger's totals and whether they balance; with `chain`, also the chain vault reconciled
 * with the ledger (chain mode only: `chain_mode_off` otherwise).
 */
export async function auditHst(
  arcade: ArcadeServices,
  options: { chain?: boolean } = {},
): Promise<AuditReport> {
  const chainConfig = arcade.config.chain;
  if (options.chain && !chainConfig) {
    throw new CoinopError(
      'chain_mode_off',
      'this arcade runs without a chain vault (--chain-vault-address): there is no vault to ' +
        'reconcile with',
    );
  }
  const audit = await auditLedger(arcade.db);
  const chain =
    options.chain && chainConfig ? await reconcileChainVault(arcade.db, chainConfig) : null;
  return {
    debitsPosted: formatHst(audit.debitsPosted),
    creditsPosted: formatHst(audit.creditsPosted),
    debitsPending: formatHst(audit.debitsPending),
    creditsPending: formatHst(audit.creditsPending),
    minted: formatHst(audit.minted),
    vaultHeld: formatHst(audit.vaultHeld),
    balanced: audit.balanced,
    ...(chainConfig ? { chainMode: true as const } : {}),
    ...(chain ? { chain } : {}),
  };
}

/** `arcade` names this arcade's own account: the operator need not look its id up. */
async function requireAccount(arcade: ArcadeServices, id: string) {
  const found = await resolveAccount(arcade.db, id === 'arcade' ? arcade.record.id : id);
  if (!found) throw accountNotFound(id);
  return found;
}

function accountNotFound(id: string): CoinopError {
  return new CoinopError(
    'account_not_found',
    WALLET_ADDRESS.test(id)
      ? `no player or developer has wallet ${normalizeWallet(id)}`
      : `no account, player, developer or arcade has id ${id}`,
    { details: { accountId: id } },
  );
}
