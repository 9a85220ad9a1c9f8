import type { Game } from '@coinop/protocol';
import { Hst } from '../components/hst.js';
import { ScoreRulesLine } from './score-rules-line.js';
import { PayoutHoldLine } from './payout-hold-line.js';
import { TournamentTierOptions, type OpenRound } from '../tournaments/game-tournaments.js';

/**
 * The game's tiers and its open tournament rounds as one radio group (arrow keys move through
 * both), each tier with its cost per play; below them, the chosen tier's score rules and payout
 * hold.
 */
export function TierPicker({
  game,
  open,
  groupName,
  tierId,
  onChange,
  onElapsed,
}: {
  game: Game;
  open: readonly OpenRound[];
  groupName: string;
  tierId: string;
  onChange: (id: string) => void;
  onElapsed: () => void;
}) {
  if (game.leaderboards.length === 0 && open.length === 0) {
    return <p>This game has no tiers yet.</p>;
  }
  const chosen = game.leaderboards.find((b) => b.id === tierId);
  return (
    <>
      <div className="tier-options" role="radiogroup" aria-labelledby={`${groupName}-label`}>
        {game.leaderboards.map((b) => (
          <div className="tier-option" key={b.id}>
            <input
              type="radio"
              id={`${groupName}-${b.id}`}
              name={groupName}
              value={b.id}
              checked={b.id === tierId}
              onChange={() => onChange(b.id)}
            />
            <label htmlFor={`${groupName}-${b.id}`}>
              {b.name}
              <span className="visually-hidden"> — </span>
              <span className="tier-cost">
                <Hst hst={b.cost} /> per play
              </span>
            </label>
          </div>
        ))}
        <TournamentTierOptions
          rounds={open}
          groupName={groupName}
          checkedId={tierId}
          onChange={onChange}
          onElapsed={onElapsed}
        />
      </div>
      <ScoreRulesLine rules={chosen?.scoreRules} unit={game.scoreUnit} />
      <PayoutHoldLine seconds={chosen?.payoutHoldSeconds} />
    </>
  );
}
