import { Type } from '@sinclair/typebox';
import { Patterns } from '../../listener/string-patterns.js';

/**
 * The fields the admin API's schemas share: wallets, HST amounts in and out, and how an operator
 * names an account or a player.
 */

export const Wallet = Type.String({
  ...Patterns.walletAddress,
  description: 'Wallet address: 0x followed by 40 hex digits (stored lower-case)',
});

/** HST as a JSON number, or a decimal string when more than 15 significant digits must survive. */
export const HstAmount = Type.Union([Type.Number(), Type.String()], {
  description: 'Amount in HST (not base units), at most 8 decimals, e.g. 12.5 or "0.00000001"',
});

/** HST in an answer: an exact decimal string from base units (`formatHst`), never a JSON number. */
export const ExactHst = (description: string) =>
  Type.String({
    ...Patterns.hstAmount,
    description: `${description}, in HST as an exact decimal string (may pass what a JSON number holds)`,
  });

const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const WALLET_PATTERN = '0x[0-9a-fA-F]{40}';

/** Where an operator names an account: by an id, or by the wallet of its player or developer. */
export const AccountRef = Type.String({
  pattern: `^(${UUID_PATTERN}|${WALLET_PATTERN}|arcade)$`,
  description:
    'An account id, the id of a player, developer or arcade (its account), the word `arcade` ' +
    "(this arcade's own account, which funds the operator's tournament guarantees), or the " +
    'wallet address of a player or developer (409 account_ambiguous when the wallet has both)',
});

/** A player by id or by wallet address. */
export const PlayerRef = Type.String({
  pattern: `^(${UUID_PATTERN}|${WALLET_PATTERN})$`,
  description: 'A player id, or the wallet address of a player',
});
