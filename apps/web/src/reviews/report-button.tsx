import { useState } from 'react';
import { useSession } from '../session/session.js';
import { ReportDialog } from './report-dialog.js';
import './reviews.css';

/**
 * "Report" on a board row of another player's best, for a signed-in player; nothing for one's
 * own row or when signed out (a report needs a reporter).
 */
export function ReportButton({
  leaderboardId,
  player,
}: {
  leaderboardId: string;
  player: { playerId: string; name: string };
}) {
  const { state } = useSession();
  const [open, setOpen] = useState(false);
  if (state.status !== 'signed-in' || state.player.playerId === player.playerId) return null;
  return (
    <>
      <button
        type="button"
        className="report-button"
        aria-label={`Report ${player.name}'s score`}
        onClick={() => setOpen(true)}
      >
        Report
      </button>
      {open && (
        <ReportDialog leaderboardId={leaderboardId} player={player} onDone={() => setOpen(false)} />
      )}
    </>
  );
}
