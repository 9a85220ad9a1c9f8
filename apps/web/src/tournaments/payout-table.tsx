import { useState } from 'react';
import { dividePool, type TournamentPayoutTable as Table } from '@coinop/protocol';
import { Hst } from '../components/hst.js';

/** Places shown before "Show all places". */
const PLACES_SHOWN = 10;

/** "1st", "2nd", "3rd", "4th", "11th", "21st". */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th'}`;
}

/** Basis points as a percent: 5000 → "50%", 1250 → "12.5%". */
function percent(bps: number): string {
  return `${(bps / 100).toLocaleString('en', { maximumFractionDigits: 2 })}%`;
}

/**
 * The round's payout table with what each place would get from the pool as it stands, computed
 * by the arcade's own rule (`dividePool` of @coinop/protocol: floor of pool × share, exact in base
 * units, the remainder to the arcade), so the page can never promise more than the close pays.
 */
export function PayoutTable({
  table,
  poolUnits,
  rankedPlayers,
}: {
  table: Table;
  poolUnits: bigint;
  /** Players with a score on the round's board now. */
  rankedPlayers: number;
}) {
  const [showAll, setShowAll] = useState(false);
  if ('topPercent' in table) {
    const division = dividePool(poolUnits, table, rankedPlayers);
    const paid = division.prizes.length;
    return (
      <div className="payout">
        <p className="payout-form">
          The top <strong>{table.topPercent}%</strong> of the field share the pool equally.
        </p>
        {paid === 0 ? (
          <p className="muted">Nobody has scored yet: the first scores decide how many are paid.</p>
        ) : (
          <p>
            With {rankedPlayers} {rankedPlayers === 1 ? 'player' : 'players'} on the board now,{' '}
            {paid === 1 ? 'the winner takes' : `the top ${paid} would each get`}{' '}
            <strong className="payout-prize">
              <Hst units={division.prizes[0] ?? 0n} />
            </strong>
            .
          </p>
        )}
        <Remainder units={division.remainder} shown={paid > 0} />
      </div>
    );
  }

  const places = table.places.length;
  const full = dividePool(poolUnits, table, places);
  const shortField = rankedPlayers > 0 && rankedPlayers < places;
  const now = shortField ? dividePool(poolUnits, table, rankedPlayers) : null;
  const rows = showAll ? table.places : table.places.slice(0, PLACES_SHOWN);
  return (
    <div className="payout">
      <table className="payout-table">
        <caption className="visually-hidden">Prizes by place from the pool as it stands</caption>
        <thead>
          <tr>
            <th scope="col">Place</th>
            <th scope="col">Share</th>
            <th scope="col" className="payout-amount">
              Prize now
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((bps, i) => (
            <tr key={i} className={i < 3 ? `place-${i + 1}` : undefined}>
              <th scope="row">
                <span className="place-disc" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="visually-hidden">{ordinal(i + 1)}</span>
              </th>
              <td>{percent(bps)}</td>
              <td className="payout-amount">
                <Hst units={full.prizes[i] ?? 0n} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {places > PLACES_SHOWN && (
        <button type="button" className="link-button" onClick={() => setShowAll((v) => !v)}>
          {showAll ? `Show the first ${PLACES_SHOWN} places` : `Show all ${places} places`}
        </button>
      )}
      {rankedPlayers === 0 && (
        <p className="hint">Prizes grow with every play: the pool is paid when the round ends.</p>
      )}
      {now !== null && (
        <p className="hint payout-short">
          Only {rankedPlayers} {rankedPlayers === 1 ? 'player has' : 'players have'} scored: if the
          round ended now, the whole pool would go to{' '}
          {now.prizes.map((prize, i) => (
            <span key={i}>
              {i > 0 && (i === now.prizes.length - 1 ? ' and ' : ', ')}
              {ordinal(i + 1)} <Hst units={prize} />
            </span>
          ))}
          .
        </p>
      )}
      <Remainder units={(now ?? full).remainder} shown />
    </div>
  );
}

function Remainder({ units, shown }: { units: bigint; shown: boolean }) {
  if (!shown || units === 0n) return null;
  return (
    <p className="hint">
      What does not divide evenly, <Hst units={units} />, goes to the arcade.
    </p>
  );
}
