import type { DeveloperGame } from '@coinop/protocol';
import { usePortalApi } from './parts.js';
import { ScoreRulesForm } from './score-rules-form.js';

/**
 * The game's score rules, then each tier's overrides (issue 30): bounds, the shortest run and
 * required replays. The arcade refuses a score that breaks them before it pays anything.
 */
export function ScoreRulesSection({
  game,
  onChange,
}: {
  game: DeveloperGame;
  onChange: () => Promise<void>;
}) {
  const api = usePortalApi();
  return (
    <section className="portal-section" aria-labelledby="score-rules-heading">
      <h2 id="score-rules-heading">Score rules</h2>
      <p className="muted">
        A score outside the bounds, sooner than the shortest possible run, or without a replay your
        verifier reproduces is refused: it pays nothing and the play stays open for an honest score.
        Leave a field empty for no rule. Replays can be required once the game has a replay
        verifier. What each rule stops, and what it cannot: docs/concepts/score-integrity.md in the
        coinop repository.
      </p>
      <ScoreRulesForm
        key={`${game.id}-rules`}
        label="Score rules of the game"
        rules={game.scoreRules}
        onSave={async ({ replay, ...bounds }) => {
          await api.updateGame(game.id, { scoreRules: { ...bounds, replay: replay ?? 'off' } });
          await onChange();
        }}
      />
      {game.leaderboards.map((tier) => (
        <details key={tier.id} className="add-tier">
          <summary>Overrides for “{tier.name}”</summary>
          <ScoreRulesForm
            label={`Score rules of “${tier.name}”`}
            rules={tier.scoreRules}
            inherited={game.scoreRules}
            onSave={async (change) => {
              await api.updateTier(game.id, tier.id, { scoreRules: change });
              await onChange();
            }}
          />
        </details>
      ))}
    </section>
  );
}
