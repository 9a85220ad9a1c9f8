import { useCallback, useEffect, useState } from 'react';
import type { DeveloperGame } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { Link } from '../router.js';
import { CredentialsSection } from './credentials-section.js';
import { GameDetailsSection } from './game-details-section.js';
import { GameOverview } from './game-overview.js';
import { gameSectionAt, gameSectionHref, type GameSectionPath } from './game-sections.js';
import { GameSectionsNav } from './game-sections-nav.js';
import { ErrorAlert, errorText, usePortalApi } from './parts.js';
import { useTitle } from '../components/page-title.js';
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
 * `/developer/games/{id}` and `/developer/games/{id}/{section}`: the game's name and status, its
 * sections' navigation, and the section asked for (the overview by default). The game is loaded
 * once and kept while the developer moves between sections.
 */
export function GameAdminPage({ gameId, section }: { gameId: string; section: GameSectionPath }) {
  const api = usePortalApi();
  const [game, setGame] = useState<DeveloperGame | null>(null);
  const [error, setError] = useState<{ notFound: boolean; text: string } | null>(null);
  const label = gameSectionAt(section)?.label ?? 'Overview';
  useTitle(game === null ? 'Game' : section === '' ? game.name : `${label} · ${game.name}`);

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

  return (
    <section className="page portal">
      <p className="breadcrumb">
        <Link href="/developer">Developer portal</Link>
        {section !== '' && (
          <>
            {' '}
            / <Link href={gameSectionHref(game.id, '')}>{game.name}</Link>
          </>
        )}
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
      <GameSectionsNav gameId={game.id} current={section} />
      <SectionBody section={section} game={game} setGame={setGame} reload={reload} />
    </section>
  );
}

/** The sections of one view, moved here as they were on the single page, in the same order. */
function SectionBody({
  section,
  game,
  setGame,
  reload,
}: {
  section: GameSectionPath;
  game: DeveloperGame;
  setGame: (game: DeveloperGame) => void;
  reload: () => Promise<void>;
}) {
  switch (section) {
    case '':
      return <GameOverview game={game} />;
    case 'details':
      return (
        <>
          <GameDetailsSection game={game} onSaved={setGame} />
          <ShowcaseSection game={game} onSaved={setGame} />
        </>
      );
    case 'boards':
      return (
        <>
          <TiersSection game={game} onChange={reload} />
          <ScoreRulesSection game={game} onChange={reload} />
          <PayoutHoldSection game={game} onChange={reload} />
        </>
      );
    case 'tournaments':
      return <TournamentsSection game={game} />;
    case 'integration':
      return (
        <>
          <IntegrateLink gameId={game.id} />
          <CredentialsSection game={game} onChange={reload} />
          <VerifierSection game={game} />
        </>
      );
    case 'publishing':
      return (
        <>
          <PublishSection game={game} onChange={reload} />
          <TestersSection game={game} />
        </>
      );
    case 'reviews':
      return <ReviewsSection game={game} />;
    case 'stats':
      return <StatsSection gameId={game.id} scoreUnit={game.scoreUnit} />;
  }
}

function IntegrateLink({ gameId }: { gameId: string }) {
  return (
    <p className="integrate-link">
      The code for <code>@coinop/server-sdk</code>, <code>@coinop/game-sdk</code> and the CLI login,
      with this game&apos;s ids filled in:{' '}
      <Link href={gameSectionHref(gameId, 'integrate')}>Integrate your game</Link>
    </p>
  );
}
