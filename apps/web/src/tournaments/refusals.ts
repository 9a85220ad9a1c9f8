import { ApiError } from '../api.js';

/**
 * A tournament's refusal of a play or score (docs/concepts/tournaments.md, "Entering") in words
 * a player reads: what happened, that nothing was charged, what they can do. Null for any other
 * error. The API's `details` name the limit; the texts do not depend on them.
 */
export function tournamentRefusal(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  switch (error.code) {
    case 'tournament_full':
      return 'This tournament round is full: it has taken all the players it can. Nothing was charged.';
    case 'tournament_attempts_exhausted':
      return 'You have used all your attempts in this tournament round. Nothing was charged.';
    case 'tournament_not_started':
      return 'This tournament round has not started yet. Nothing was charged: try again when it opens.';
    case 'tournament_closed':
      return 'This tournament round has ended. A new play is not charged; a play that had not scored by the end counts as played, not refunded.';
    case 'tournament_chain_play_refused':
      return 'A tournament play is paid from your arcade balance, not locked from your wallet. Nothing was charged.';
    default:
      return null;
  }
}
