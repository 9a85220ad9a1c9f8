import type { ChainStatus } from '@coinop/protocol';

/** Whether HST is leaving the vault, in one line, and whether that line is bad news. */
export interface ChainVerdict {
  /** `sending` is the only state in which withdrawals, settlements and refunds go out. */
  readonly kind: 'failing' | 'no_key' | 'waiting' | 'sending';
  readonly text: string;
}

/**
 * The operator's answer to "is HST leaving the vault?" from everything the status says, not only
 * its halt (operator review, finding 2: "Sending" was shown while the watcher failed and while no
 * operator key was given). A halt has its own panel and banner; this is for every other state.
 */
export function chainVerdict(status: ChainStatus): ChainVerdict {
  if (status.state === 'failing') {
    const error = status.lastError?.message ?? 'no error recorded';
    return {
      kind: 'failing',
      text:
        `Failing: the chain watcher cannot read the chain (last error: ${error}). Deposits are ` +
        'not credited, and withdrawals, settlements and refunds do not leave the vault while it ' +
        'fails; it keeps trying.',
    };
  }
  const withdrawals = status.withdrawals;
  if (withdrawals && withdrawals.operatorAddress === null) {
    return {
      kind: 'no_key',
      text:
        'Waiting: this server has no operator key (--chain-operator-key-file), so withdrawals, ' +
        'settlements and refunds are queued, not sent. Start the sending process with the key.',
    };
  }
  if (withdrawals?.waiting) {
    return { kind: 'waiting', text: `Waiting: ${withdrawals.waiting}.` };
  }
  return {
    kind: 'sending',
    text: 'Sending: withdrawals, settlements and refunds leave the vault as they come.',
  };
}
