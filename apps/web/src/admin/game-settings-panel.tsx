import { useEffect, useRef, useState } from 'react';
import type { AdminGameSettings, ScoreRules } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Outcome, errorText } from './parts.js';
import { hstUnits } from '../account/hst-amounts.js';
import { holdDuration } from '../components/hold-duration.js';
import { scoreRulesText } from '../game/score-rules-line.js';

/** "held 24 h (game’s own)", "paid at once (operator default)". */
function holdText(seconds: number, from: string): string {
  return `${seconds > 0 ? `held ${holdDuration(seconds)}` : 'paid at once'} (${from})`;
}

function rulesText(rules: ScoreRules): string {
  return scoreRulesText(rules, '') || 'None';
}

/**
 * What judges and holds one game's scores (issue 30): the game's score rules and payout hold,
 * then each tier's, as set and as in force. Read-only: the developer sets them in the portal;
 * the operator sets the default hold (`--payout-hold`) and voids scores in the review queue.
 */
export function GameSettingsPanel({
  api,
  gameId,
  onClose,
}: {
  api: AdminApi;
  gameId: string;
  onClose: () => void;
}) {
  const [settings, setSettings] = useState<AdminGameSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    let live = true;
    setSettings(null);
    setError(null);
    api.gameSettings(gameId).then(
      (loaded) => live && setSettings(loaded),
      (e: unknown) => live && setError(`Could not load the rules and holds: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, gameId]);

  // The panel opens below the list: take the reader (and a screen reader's focus) to it.
  useEffect(() => {
    if (settings !== null) heading.current?.focus();
  }, [settings]);

  if (settings === null) {
    return (
      <section className="admin-panel" aria-label="Score rules and payout hold">
        {error === null ? <p role="status">Loading…</p> : <Outcome text={error} tone="error" />}
      </section>
    );
  }
  const s = settings;
  const gameFrom = s.payoutHoldSeconds === null ? 'operator default' : 'game’s own';
  return (
    <section className="admin-panel" aria-labelledby="game-settings-heading">
      <h2 id="game-settings-heading" tabIndex={-1} ref={heading}>
        {s.name}: score rules and payout hold
      </h2>
      <p>
        Payouts {holdText(s.effectivePayoutHoldSeconds, gameFrom)}. Score rules of the game:{' '}
        {rulesText(s.scoreRules)}.
      </p>
      <p className="admin-muted">
        Set by the game’s developer in the developer portal; your default hold is{' '}
        {holdDuration(s.operatorPayoutHoldSeconds)} (<code>--payout-hold</code>). Void a false score
        within its hold from the review queue.
      </p>
      <div className="admin-table-wrap">
        <table className="admin-table stacked-rows">
          <caption className="visually-hidden">Each tier’s score rules and payout hold</caption>
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">Cost</th>
              <th scope="col">Payouts</th>
              <th scope="col">Score rules in force</th>
            </tr>
          </thead>
          <tbody>
            {s.tiers.map((t) => (
              <tr key={t.leaderboardId}>
                <th scope="row">{t.name}</th>
                <td data-label="Cost">{t.formattedCostString}</td>
                <td data-label="Payouts">
                  {hstUnits(t.cost) === 0n
                    ? 'free: nothing to hold'
                    : holdText(
                        t.effectivePayoutHoldSeconds,
                        t.payoutHoldSeconds === null ? 'as the game' : 'tier’s own',
                      )}
                </td>
                <td data-label="Score rules">{rulesText(t.effectiveScoreRules)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" onClick={onClose}>
        Close <span className="visually-hidden">the rules and hold of {s.name}</span>
      </button>
    </section>
  );
}
