import type { PlayerNotification } from '@coinop/protocol';

const ordinal = (n: number): string => {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
};

/**
 * What a notification says, in one sentence a player reads in the menu and the toast. The
 * amount is the server's exact decimal HST string (formatted from base units), never a number.
 */
export function notificationText(n: PlayerNotification): string {
  const game = n.gameName ?? 'a game';
  if (n.kind === 'payout') {
    if (n.status === 'voided') return `A payout of ${n.amount} HST was voided: its score was.`;
    // A leader playing on their own board gets back a share of their own cost: not income.
    if (n.ownPlay) {
      const back = `Your own play on your board in ${game}: ${n.amount} HST of its cost`;
      return n.status === 'held'
        ? `${back} comes back to you as a leader, held for review.`
        : `${back} came back to you as a leader.`;
    }
    const cause = `${n.fromPlayerName ?? 'Someone'} played on your board in ${game}`;
    if (n.status === 'held') return `You won ${n.amount} HST, held for review: ${cause}`;
    return `You were paid ${n.amount} HST: ${cause}`;
  }
  if (n.kind === 'prize') {
    const place = n.rank === null ? '' : `${ordinal(n.rank)}, `;
    return `Your round closed: ${place}${n.amount} HST in ${game}`;
  }
  if (n.kind === 'refund') {
    const what = n.tierName === null ? game : `${game}'s ${n.tierName}`;
    return `Your entry to ${what} was refunded: ${n.amount} HST`;
  }
  if (n.kind === 'publish_approved') return `${game} is published: players can find it now.`;
  if (n.kind === 'publish_declined') {
    return `${game} was not published: ${n.reason ?? 'no reason given'}`;
  }
  return `Deposit credited: ${n.amount} HST`;
}

/** Whether notification id `a` is newer than `b` (ids are `<microseconds>-<transfer id>`). */
export function isNewer(a: string, b: string | null): boolean {
  if (b === null) return true;
  const [am = '0', aId = ''] = a.split(/-(.*)/s);
  const [bm = '0', bId = ''] = b.split(/-(.*)/s);
  const byTime = BigInt(am) - BigInt(bm);
  return byTime === 0n ? aId > bId : byTime > 0n;
}
