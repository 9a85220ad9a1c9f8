import { Link, navigate } from '../router.js';
import { GameForm } from './game-form.js';
import { usePortalApi } from './parts.js';
import { useTitle } from '../components/page-title.js';

/** `/developer/games/new`: register a game, then go to its page. */
export function NewGamePage() {
  useTitle('Register a game');
  const api = usePortalApi();
  return (
    <section className="page portal">
      <p className="breadcrumb">
        <Link href="/developer">Developer portal</Link>
      </p>
      <h1>Register a game</h1>
      <p>
        The game starts with the arcade&apos;s default leaderboard tiers; change them on its page.
        An operator publishes it in the catalog.
      </p>
      <GameForm
        game={null}
        submitLabel="Register the game"
        onSubmit={async (fields) => {
          const game = await api.createGame(fields);
          navigate(`/developer/games/${encodeURIComponent(game.id)}`);
          window.scrollTo(0, 0);
          return null;
        }}
      />
    </section>
  );
}
