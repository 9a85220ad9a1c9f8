import { groupHstUnits, hstNumberToUnits } from '../account/hst-amounts.js';
import { TokenMark } from './brand.js';

/**
 * An HST amount as the arcade shows it everywhere: the coin, then the exact amount and ticker
 * (`1,250.5 HST`). Where room is short (the header's chip on a phone) CSS may hide the ticker
 * from sight; the coin still says it, and screen readers still hear it. Takes base units (bigint) or the API's HST number, which is read back as
 * decimal text, never through float arithmetic (account/hst-amounts.ts).
 */
export function Hst({ units, hst }: { units?: bigint; hst?: number }) {
  const amount = units ?? (hst === undefined ? 0n : hstNumberToUnits(hst));
  return (
    <span className="hst">
      <TokenMark />
      {groupHstUnits(amount)}
      <span className="ticker"> HST</span>
    </span>
  );
}
