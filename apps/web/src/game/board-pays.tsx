import { useEffect, useState } from 'react';
import type { Game, TierPayout } from '@coinop/protocol';
import { getGamePayouts } from '../api.js';
import { Hst } from '../components/hst.js';

type Tier = Game['leaderboards'][number];

/**
 * "How this board pays" (issue 31): who gets what of one play on the chosen tier, as the arcade
 * computes it with the settlement's own split for the board as it stands (its current leaders).
 * Read again when the leaders change, so the box says what the next play pays.
 */
export function BoardPays({
  game,
  tier,
  playerId,
}: {
  game: Game;
  tier: Tier;
  /** The signed-in player, marked "(you)" where they lead: their own play pays them back a share. */
  playerId: string | null;
}) {
  const [payout, setPayout] = useState<{ tier: TierPayout; leadersPercent: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const leadersKey = tier.leaders.map((l) => l.playerId).join(',');

  useEffect(() => {
    const abort = new AbortController();
    getGamePayouts(game.id, abort.signal).then(
      (payouts) => {
        const found = payouts.tiers.find((t) => t.leaderboardId === tier.id);
        setPayout(found ? { tier: found, leadersPercent: payouts.split.leadersPercent } : null);
        setFailed(false);
      },
      () => {
        if (!abort.signal.aborted) setFailed(true);
      },
    );
    return () => abort.abort();
  }, [game.id, tier.id, leadersKey]);

  return (
    <section className="board-pays" aria-labelledby="board-pays-heading">
      <h3 id="board-pays-heading">How this board pays</h3>
      {failed && <p>The arcade could not say just now; the split is the same for every play.</p>}
      {!failed && payout === null && <p aria-live="polite">Reading the split…</p>}
      {payout !== null && (
        <PayoutLines
          payout={payout.tier}
          leadersPercent={payout.leadersPercent}
          playerId={playerId}
        />
      )}
    </section>
  );
}

function PayoutLines({
  payout,
  leadersPercent,
  playerId,
}: {
  payout: TierPayout;
  leadersPercent: number;
  playerId: string | null;
}) {
  const leaders = payout.leaders.length;
  const leading = playerId !== null && payout.leaders.some((l) => l.playerId === playerId);
  const leadersUnits = payout.leaders.reduce((sum, l) => sum + BigInt(l.units), 0n);
  const each = payout.leaders[0];
  return (
    <>
      <p>
        Each play costs <Hst units={BigInt(payout.cost.units)} />. A play begun now pays:
      </p>
      <dl>
        {leaders > 0 && each !== undefined && (
          <>
            <dt>
              {leaders === 1 ? 'The leader' : `The ${leaders} leaders`}
              {leading && (
                <span className="you">{leaders === 1 ? ' (you)' : ' (you among them)'}</span>
              )}
              {leaders > 1 && (
                <span className="each">
                  <Hst units={BigInt(each.units)} /> each
                </span>
              )}
            </dt>
            <dd>
              <Hst units={leadersUnits} />
            </dd>
          </>
        )}
        {leaders === 0 && BigInt(payout.returned.units) > 0n && (
          <>
            <dt>Back to you</dt>
            <dd>
              <Hst units={BigInt(payout.returned.units)} />
            </dd>
          </>
        )}
        <dt>The developer</dt>
        <dd>
          <Hst units={BigInt(payout.developer.units)} />
        </dd>
        <dt>The arcade</dt>
        <dd>
          <Hst units={BigInt(payout.arcade.units)} />
        </dd>
      </dl>
      <p className="note">
        {leadersPercent}% of every play is shared equally by the board&apos;s top{' '}
        {payout.leadersMax} when the play begins
        {leaders === 0 ? ': no one leads yet, so that part comes back to you' : ''}. With all{' '}
        {payout.leadersMax} places taken, each leader gets{' '}
        <Hst units={BigInt(payout.fullBoardLeaderShare.units)} /> a play; what a split leaves over
        goes to the arcade.
      </p>
    </>
  );
}
