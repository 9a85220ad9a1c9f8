import type { ReactNode } from 'react';
import type { DeveloperGame } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { Link } from '../router.js';
import { GAME_SECTIONS, gameSectionHref, type GameSectionPath } from './game-sections.js';
import { CopyField, demoAddress, ErrorAlert, When } from './parts.js';
import { useGameGlance, type GameGlance } from './use-game-glance.js';

/**
 * `/developer/games/{id}`: the game at a glance — what needs the developer's attention (a
 * publish request, open reviews, a missing URL), its tiers and numbers, its links — and the way
 * to each of its sections.
 */
export function GameOverview({ game }: { game: DeveloperGame }) {
  const glance = useGameGlance(game);
  return (
    <>
      {glance.errors.map((error) => (
        <ErrorAlert key={error} error={error} />
      ))}
      <Attention game={game} glance={glance} />
      <AtAGlance game={game} glance={glance} />
      <section className="portal-section" aria-labelledby="sections-heading">
        <h2 id="sections-heading">Sections</h2>
        <ul className="game-overview-sections">
          {GAME_SECTIONS.filter((s) => s.path !== '').map((section) => (
            <li key={section.path}>
              <Link href={gameSectionHref(game.id, section.path)} className="card-title">
                {section.label}
              </Link>
              <p className="muted">{section.about}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/** What the developer should look at, each with a link to the section that deals with it. */
function Attention({ game, glance }: { game: DeveloperGame; glance: GameGlance }) {
  const items: { key: string; text: ReactNode; section: GameSectionPath; action: string }[] = [];
  if (game.url === '') {
    items.push({
      key: 'url',
      text: 'No game URL yet: the arcade has nothing to frame.',
      section: 'details',
      action: 'Set it in Details',
    });
  }
  const request = glance.publishRequest;
  if (!game.published && request?.state === 'pending') {
    items.push({
      key: 'publish',
      text: (
        <>
          Your publish request waits for the operator (sent <When iso={request.requestedAt} />
          ).
        </>
      ),
      section: 'publishing',
      action: 'See it in Publishing',
    });
  } else if (!game.published && request?.state === 'declined') {
    items.push({
      key: 'publish',
      text: `The operator declined to publish the game: “${request.declineReason ?? ''}”`,
      section: 'publishing',
      action: 'Ask again in Publishing',
    });
  } else if (!game.published && request !== undefined) {
    items.push({
      key: 'publish',
      text: 'Not in the catalog yet: only you and your testers can play it.',
      section: 'publishing',
      action: 'Ask to publish it',
    });
  }
  const open = glance.openReviews;
  if (open !== undefined && open.count > 0) {
    const count = open.more ? `${open.count} or more scores wait` : scoresWait(open.count);
    items.push({
      key: 'reviews',
      text: `${count} for your review.`,
      section: 'reviews',
      action: 'Open Reviews',
    });
  }
  const loading = request === undefined || open === undefined;
  return (
    <section className="portal-section" aria-labelledby="attention-heading">
      <h2 id="attention-heading">Needs your attention</h2>
      {items.length > 0 && (
        <ul className="attention">
          {items.map((item) => (
            <li key={item.key}>
              {item.text} <Link href={gameSectionHref(game.id, item.section)}>{item.action}</Link>
            </li>
          ))}
        </ul>
      )}
      {items.length === 0 && loading && glance.errors.length === 0 && <p role="status">Loading…</p>}
      {items.length === 0 && !loading && <p className="muted">Nothing needs your attention.</p>}
    </section>
  );
}

const scoresWait = (count: number) => (count === 1 ? '1 score waits' : `${count} scores wait`);

/** The game's id, tiers, plays and earnings, credentials, and its links. */
function AtAGlance({ game, glance }: { game: DeveloperGame; glance: GameGlance }) {
  const liveClients = game.clients.filter((c) => c.revokedAt === null).length;
  const { stats } = glance;
  return (
    <section className="portal-section" aria-labelledby="glance-heading">
      <h2 id="glance-heading">At a glance</h2>
      <CopyField label="Game id" value={game.id} />
      <dl className="facts">
        <dt>Tiers</dt>
        <dd>
          {game.leaderboards
            .map((tier) => `${tier.name} (${tier.formattedCostString} per play)`)
            .join(', ')}
        </dd>
        <dt>Plays</dt>
        <dd>{stats === undefined ? '…' : stats.plays.total}</dd>
        <dt>HST earned</dt>
        <dd>{stats === undefined ? '…' : formatHstUnits(hstUnits(stats.hstEarned))}</dd>
        <dt>Server credentials</dt>
        <dd>{liveClients === 0 ? 'None' : `${liveClients} live`}</dd>
      </dl>
      <ul className="link-list">
        <li>
          <Link href={gameSectionHref(game.id, 'integrate')}>Integrate your game</Link>
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
            <Link href={demoAddress(game)}>Try it in the demo arcade</Link>
          )}
        </li>
      </ul>
    </section>
  );
}
