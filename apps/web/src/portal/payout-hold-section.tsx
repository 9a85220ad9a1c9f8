import type { DeveloperGame } from '@coinop/protocol';
import { usePortalApi } from './parts.js';
import { PayoutHoldForm } from './payout-hold-form.js';

/**
 * The payout hold of the game and of each tier (issue 30): how long what a play pays stays
 * pending, so a false score can be voided and its payouts re-settled before anyone spends them.
 */
export function PayoutHoldSection({
  game,
  onChange,
}: {
  game: DeveloperGame;
  onChange: () => Promise<void>;
}) {
  const api = usePortalApi();
  const operator = game.operatorPayoutHoldSeconds ?? 0;
  const gameHold = game.payoutHoldSeconds ?? null;
  const gameInForce = gameHold ?? operator;
  return (
    <section className="portal-section" aria-labelledby="payout-hold-heading">
      <h2 id="payout-hold-heading">Payout hold</h2>
      <p className="muted">
        What a play pays its leaders, you and the arcade stays pending for the hold, and players see
        it as held. Within the hold you or the operator can void a false score from the review
        queue: its payouts are reversed and paid to whoever should have had them. Once a hold ends
        the HST is spendable and is not taken back, so set it longer than your review takes. Free
        plays, plays paid from a wallet on chain and tournament rounds are not held.
      </p>
      <PayoutHoldForm
        key={`${game.id}-hold`}
        label="Payout hold of the game"
        own={gameHold}
        inherited={operator}
        inheritedFrom="operator default"
        clearLabel="Use the operator default"
        onSave={async (seconds) => {
          await api.updateGame(game.id, { payoutHoldSeconds: seconds });
          await onChange();
        }}
      />
      {game.leaderboards.map((tier) => (
        <details key={tier.id} className="add-tier">
          <summary>Hold for “{tier.name}”</summary>
          <PayoutHoldForm
            label={`Payout hold of “${tier.name}”`}
            own={tier.payoutHoldSeconds ?? null}
            inherited={gameInForce}
            inheritedFrom="the game’s hold"
            clearLabel="Use the game’s hold"
            onSave={async (seconds) => {
              await api.updateTier(game.id, tier.id, { payoutHoldSeconds: seconds });
              await onChange();
            }}
          />
        </details>
      ))}
    </section>
  );
}
