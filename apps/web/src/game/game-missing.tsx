import { Link } from '../router.js';
import { InvitationNotice } from '../testing/invitation-notice.js';

/**
 * The game page when the game could not be loaded: not in the arcade (a signed-out visitor is
 * told a developer or tester may preview it; an invited tester is offered the invitation), or
 * the error.
 */
export function GameMissing({
  gameId,
  error,
  viewer,
  signedOut,
  onAccepted,
}: {
  gameId: string;
  error: { missing: boolean; message: string };
  viewer: string | null;
  signedOut: boolean;
  onAccepted: () => void;
}) {
  const notFound = (
    <>
      <h1>{error.missing ? 'Game not found' : 'Could not load the game'}</h1>
      <p role="alert">{error.missing ? 'This game is not in the arcade.' : error.message}</p>
      {error.missing && signedOut && (
        <p>Developing or testing this game? Connect your wallet to preview it.</p>
      )}
    </>
  );
  return (
    <section className="page">
      {error.missing && viewer !== null ? (
        // A game the player is invited to test says so, rather than "not found" (issue 27).
        <InvitationNotice gameId={gameId} onAccepted={onAccepted} fallback={notFound} />
      ) : (
        notFound
      )}
      <p>
        <Link href="/">Back to the games</Link>
      </p>
    </section>
  );
}
