import { Fragment, type ReactNode } from 'react';
import './money.css';
import { formatHst, formatHstCompact, formatHstGrouped, formatHstRounded } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import { TokenMark } from './brand.js';
import { useCopy } from './toasts.js';

/** What `formatHstCompact` writes at most: the header's chip on a phone has room for no more. */
const COMPACT_CHARS = 7;
/** What a big figure (`--step-3`) with its coin and ticker fits across a 360 px phone's card. */
const FIGURE_CHARS = 11;

/**
 * An HST amount as the arcade shows it everywhere: the coin, then the exact amount and ticker
 * (`1,250.5 HST`). Where room is short (the header's chip on a phone) CSS may hide the ticker
 * from sight; the coin still says it, and screen readers still hear it. Takes base units (bigint)
 * or an amount as the API gives it (an exact decimal string or a JSON number of HST), read
 * exactly, never through float arithmetic (account/hst-amounts.ts).
 *
 * `rounded` is for a holding shown where room is short (the header's chip, a big balance):
 * at most 2 decimals, cut and never rounded up, marked `≈` when digits were dropped; on phones,
 * when that is longer than `phoneChars` characters, in thousands, millions or billions
 * (`≈1.05K`). The exact amount stays in the tooltip and is what screen readers hear
 * (apps/web/README.md, "Amounts").
 */
export function Hst({
  units,
  hst,
  rounded = false,
  phoneChars = COMPACT_CHARS,
}: {
  units?: bigint;
  hst?: number | string;
  rounded?: boolean;
  /** How many characters of a rounded amount fit on a phone; longer ones are abbreviated. */
  phoneChars?: number;
}) {
  const amount = units ?? (hst === undefined ? 0n : hstUnits(hst));
  const exact = formatHstGrouped(amount);
  const wide = rounded ? formatHstRounded(amount) : null;
  if (wide === null || amount < 0n) {
    return (
      <span className="hst">
        <TokenMark />
        {groupBreaks(exact)}
        <span className="ticker"> HST</span>
      </span>
    );
  }
  const narrow = wide.text.length <= phoneChars ? wide : formatHstCompact(amount);
  const same = narrow.text === wide.text;
  return (
    <span className="hst" title={`${exact} HST`} data-exact={formatHst(amount)}>
      <TokenMark />
      {same && wide.exact ? (
        groupBreaks(exact)
      ) : (
        <>
          <span aria-hidden="true" className={same ? undefined : 'hst-wide'}>
            {wide.text}
          </span>
          {!same && (
            <span aria-hidden="true" className="hst-narrow">
              {narrow.text}
            </span>
          )}
          <span className="visually-hidden">{exact}</span>
        </>
      )}
      <span className="ticker"> HST</span>
    </span>
  );
}

/**
 * A grouped amount that may break after a thousands comma (`1,234,<wbr>567.5`): where a narrow
 * box must wrap it, it wraps between groups rather than after the point, which would read as two
 * numbers. The text is the same.
 */
function groupBreaks(grouped: string): ReactNode {
  const groups = grouped.split(',');
  return groups.map((group, i) => (
    <Fragment key={i}>
      {group}
      {i < groups.length - 1 && (
        <>
          ,<wbr />
        </>
      )}
    </Fragment>
  ));
}

/**
 * A holding as a big figure (the account page's balance, the portal's earnings): rounded as
 * `<Hst rounded>`, and when that dropped digits, the exact amount in a line below it with a
 * Copy button that copies it as an amount field takes it (`1057.17027776`).
 */
export function HstFigure({ units, name }: { units: bigint; name: string }) {
  const copy = useCopy();
  const shortened = !formatHstRounded(units).exact || !formatHstCompact(units).exact;
  return (
    <>
      <Hst units={units} rounded phoneChars={FIGURE_CHARS} />
      {shortened && (
        <span className="hst-exact">
          <span>
            Exactly <span className="mono">{formatHstGrouped(units)} HST</span>
          </span>{' '}
          <button
            type="button"
            className="small"
            aria-label={`Copy the exact amount, ${formatHst(units)} HST`}
            onClick={() => void copy(formatHst(units), `Exact ${name}`)}
          >
            Copy
          </button>
        </span>
      )}
    </>
  );
}
