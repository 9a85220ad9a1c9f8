import { useCallback, useEffect, useState } from 'react';
import type { DeveloperGame } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { Link } from '../router.js';
import { CredentialsSection } from './credentials-section.js';
import { GameDetailsSection } from './game-details-section.js';
import { CopyField, demoAddress, ErrorAlert, errorText, usePortalApi, useTitle } from './parts.js';
import { ScoreRulesSection } from './score-rules-section.js';
import { PayoutHoldSection } from './payout-hold-section.js';
import { ShowcaseSection } from './showcase-section.js';
import { StatsSection } from './stats-section.js';
import { PublishSection } from './publish-section.js';
import { TestersSection } from './testers-section.js';
import { ReviewsSection } from './reviews-section.js';
import { TiersSection } from './tiers-section.js';
import { TournamentsSection } from './tournaments-section.js';
import { VerifierSection } from './verifier-section.js';

/**
 * `/developer/games/{id}`: the game's status and links, then a section each to edit its details,
 * tiers, score rules, payout hold, replay verifier, server credentials and testers, and to see
 * its plays.
 */
export function GameAdminPage({ gameId }: { gameId: string }) {
  const api = usePortalApi();
  const [game, setGame] = useState<DeveloperGame | null>(null);
  const [error, setError] = useState<{ notFound: boolean; text: string } | null>(null);
  useTitle(game?.name ?? 'Game');

  const reload = useCallback(async () => {
    try {
      setGame(await api.getGame(gameId));
    } catch (e) {
      const notFound = e instanceof ApiError && e.status === 404;
      setError({ notFound, text: `Could not load the game: ${errorText(e)}` });
    }
  }, [api, gameId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  if (error?.notFound) {
    return (
      <section className="page portal">
        <h1>Game not found</h1>
        <p>
          This wallet has no game with that id. <Link href="/developer">Back to your games</Link>
        </p>
      </section>
    );
  }
  if (game === null) {
    return (
      <section className="page portal">
        <h1>Game</h1>
        <ErrorAlert error={error?.text ?? null} />
        {error === null && <p role="status">Loading…</p>}
      </section>
    );
  }

  const demoUrl = demoAddress(game);
  return (
    <section className="page portal">
      <p className="breadcrumb">
        <Link href="/developer">Developer portal</Link>
      </p>
      <h1>{game.name}</h1>
      <p>
        <span className={game.published ? 'badge live' : 'badge'}>
          {game.published ? 'Published' : 'Not published'}
        </span>{' '}
        {!game.published && (
          <span className="muted">An operator lists it in the catalog when it is ready.</span>
        )}
      </p>
      <CopyField label="Game id" value={game.id} />
      <ul className="link-list">
        <li>
          <Link href={`/developer/games/${encodeURIComponent(game.id)}/integrate`}>
            Integrate your game
          </Link>
        </li>
        <li>
          <Link href={`/games/${encodeURIComponent(game.id)}`}>
            {game.published ? 'Open it in the arcade' : 'Preview it in the arcade'}
          </Link>
        </li>
        <li>
          {game.url === '' ? (
            <span className="muted">Set the game URL to try it in the demo arcade.</span>
          ) : (
            <Link href={demoUrl}>Try it in the demo arcade</Link>
          )}
        </li>
      </ul>

      <GameDetailsSection game={game} onSaved={setGame} />
      <ShowcaseSection game={game} onSaved={setGame} />
      <TiersSection game={game} onChange={reload} />
      <ScoreRulesSection game={game} onChange={reload} />
      <PayoutHoldSection game={game} onChange={reload} />
      <TournamentsSection game={game} />
      <VerifierSection game={game} />
      <CredentialsSection game={game} onChange={reload} />
      <PublishSection game={game} onChange={reload} />
      <TestersSection game={game} />
      <ReviewsSection game={game} />
      <StatsSection gameId={game.id} scoreUnit={game.scoreUnit} />
    </section>
  );
}
