import { formatHstGrouped } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import { TokenMark } from './brand.js';

/**
 * An HST amount as the arcade shows it everywhere: the coin, then the exact amount and ticker
 * (`1,250.5 HST`). Where room is short (the header's chip on a phone) CSS may hide the ticker
 * from sight; the coin still says it, and screen readers still hear it. Takes base units (bigint)
 * or an amount as the API gives it (an exact decimal string or a JSON number of HST), read
 * exactly, never through float arithmetic (account/hst-amounts.ts).
 */
export function Hst({ units, hst }: { units?: bigint; hst?: number | string }) {
  const amount = units ?? (hst === undefined ? 0n : hstUnits(hst));
  return (
    <span className="hst">
      <TokenMark />
      {formatHstGrouped(amount)}
      <span className="ticker"> HST</span>
    </span>
  );
}
