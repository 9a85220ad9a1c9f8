import type { DeveloperGame } from '@coinop/protocol';
import { GameForm } from './game-form.js';
import { usePortalApi } from './parts.js';

/** The game's own fields; `onSaved` gets the game as the arcade stored it. */
export function GameDetailsSection({
  game,
  onSaved,
}: {
  game: DeveloperGame;
  onSaved: (game: DeveloperGame) => void;
}) {
  const api = usePortalApi();
  return (
    <section className="portal-section" aria-labelledby="details-heading">
      <h2 id="details-heading">Details</h2>
      <GameForm
        key={game.id}
        game={game}
        submitLabel="Save changes"
        onSubmit={async (fields) => {
          onSaved(await api.updateGame(game.id, fields));
          return 'Changes saved.';
        }}
      />
    </section>
  );
}
