import type { WithdrawalStatus } from '@coinop/protocol';

/** A withdrawal's status in words, in its table and in the history alike. */
export const WITHDRAWAL_STATUS_TEXT: Record<WithdrawalStatus, string> = {
  queued: 'Queued',
  sent: 'Sending',
  paid: 'Paid',
  failed: 'Failed',
};
