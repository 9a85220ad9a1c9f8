import { useEffect, useState } from 'react';
import type { PublicPlayerProfile } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { Avatar } from '../components/avatar.js';
import { Hst } from '../components/hst.js';
import { scoreText } from '../components/score.js';
import { useTitle } from '../components/page-title.js';
import { Link } from '../router.js';
import { getPublicProfile } from './profiles-api.js';
import './profiles.css';

type Loaded =
  | { status: 'loading' }
  | { status: 'loaded'; profile: PublicPlayerProfile }
  | { status: 'missing' }
  | { status: 'failed'; error: string };

/**
 * `/players/{playerId}`: a player's public page, their name and picture, their best on each board
 * of a published game and their tournament prizes (docs/concepts/profiles.md). No wallet, no
 * balance.
 */
export function PlayerPage({ playerId }: { playerId: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  useTitle(loaded.status === 'loaded' ? loaded.profile.name : 'Player');

  useEffect(() => {
    const abort = new AbortController();
    setLoaded({ status: 'loading' });
    getPublicProfile(playerId, abort.signal).then(
      (profile) => setLoaded({ status: 'loaded', profile }),
      (e: unknown) => {
        if (abort.signal.aborted) return;
        if (e instanceof ApiError && (e.status === 404 || e.status === 400)) {
          setLoaded({ status: 'missing' });
        } else setLoaded({ status: 'failed', error: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => abort.abort();
  }, [playerId]);

  if (loaded.status !== 'loaded') {
    return (
      <section className="page player-page">
        <h1>Player</h1>
        {loaded.status === 'loading' && <p role="status">Loading…</p>}
        {loaded.status === 'missing' && (
          <>
            <p>No player has this address.</p>
            <p>
              <Link href="/">Back to the games</Link>
            </p>
          </>
        )}
        {loaded.status === 'failed' && (
          <p role="alert" className="error">
            Could not load the player: {loaded.error}. Reload the page to try again.
          </p>
        )}
      </section>
    );
  }
  const { profile } = loaded;
  return (
    <section className="page player-page" aria-labelledby="player-name">
      <header className="player-page-head">
        <Avatar src={profile.avatar} playerId={profile.playerId} size={96} />
        <div>
          <h1 id="player-name">{profile.name}</h1>
          <p className="muted">
            Playing since{' '}
            <time dateTime={profile.memberSince}>
              {new Date(profile.memberSince).toLocaleDateString(undefined, {
                year: 'numeric',
                month: 'long',
                day: 'numeric',
              })}
            </time>
          </p>
        </div>
      </header>
      <BestScores profile={profile} />
      <Prizes profile={profile} />
    </section>
  );
}

function BestScores({ profile }: { profile: PublicPlayerProfile }) {
  return (
    <section aria-labelledby="player-bests">
      <h2 id="player-bests">Best scores</h2>
      {profile.boards.length === 0 ? (
        <p className="empty">No scores on the arcade’s boards yet.</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="player-bests">
          <table>
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col" className="num">
                  Rank
                </th>
                <th scope="col" className="num">
                  Score
                </th>
              </tr>
            </thead>
            <tbody>
              {profile.boards.map((b) => (
                <tr key={b.leaderboardId}>
                  <td>
                    <Link
                      href={`/games/${encodeURIComponent(b.gameId)}/boards/${encodeURIComponent(b.leaderboardId)}`}
                    >
                      {b.gameName}: {b.leaderboardName}
                    </Link>
                  </td>
                  <td className="num">#{b.rank}</td>
                  <td className="num">{scoreText(b.score, b.scoreUnit)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Prizes({ profile }: { profile: PublicPlayerProfile }) {
  return (
    <section aria-labelledby="player-prizes">
      <h2 id="player-prizes">Tournament prizes</h2>
      {profile.tournaments.length === 0 ? (
        <p className="empty">No tournament prizes yet.</p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="player-prizes">
          <table>
            <thead>
              <tr>
                <th scope="col">Tournament</th>
                <th scope="col" className="num">
                  Place
                </th>
                <th scope="col" className="num">
                  Prize
                </th>
              </tr>
            </thead>
            <tbody>
              {profile.tournaments.map((t) => (
                <tr key={`${t.tournamentId}:${t.roundNumber}`}>
                  <td>
                    <Link href={`/tournaments/${encodeURIComponent(t.tournamentId)}`}>
                      {t.tournamentName}
                    </Link>
                    , round {t.roundNumber} ({t.gameName}, {scoreText(t.score, t.scoreUnit)})
                  </td>
                  <td className="num">{t.place}</td>
                  <td className="num">
                    <Hst hst={t.prize} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
