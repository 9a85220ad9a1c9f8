import { holdDuration } from '../components/hold-duration.js';

/**
 * The chosen tier's payout hold, for the player (issue 30): what a leader earns from this tier
 * stays pending for a while, so a false score can be voided first. Nothing when paid at once.
 */
export function PayoutHoldLine({ seconds }: { seconds: number | undefined }) {
  if (seconds === undefined || seconds <= 0) return null;
  return (
    <p className="muted payout-hold-line">
      Payouts are held {holdDuration(seconds)} for review before they can be spent.
    </p>
  );
}
