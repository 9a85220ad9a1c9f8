import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import type { Allowance } from '@coinop/protocol';
import { requestJson } from '../api.js';
import { allowancesApi, describeAllowance, HST_AMOUNT } from '../allowances/allowances-api.js';
import { useArmed } from '../components/armed.js';
import { Modal } from '../components/modal.js';
import { useSession } from '../session/session.js';

/**
 * Signing a player in to a server-side game from its page in the arcade (the bridge's `login`,
 * docs/reference/bridge-protocol.md): the game's server started a CLI login naming the game; the
 * page asks the arcade to approve it. The arcade reads what the login is for, shows the player,
 * and approves it with their web session, optionally with a daily allowance for the game, as the
 * sign-in service's own approval page does. The game token goes to the game's server when it
 * polls; the web session never leaves the arcade.
 */

/** What a CLI login asks for (`GET /auth/cli/{requestorId}/info`). */
export interface CliLoginInfo {
  requestorId: string;
  description: string;
  game: { id: string; name: string; published: boolean } | null;
  userCode: string;
  status: 'pending' | 'approved' | 'denied' | 'expired';
}

/** What the login dialog shows. */
export interface LoginPrompt {
  gameName: string;
  description: string;
  userCode: string;
  /** The player's allowance for the game now; null when unknown (an unpublished game). */
  allowance: Allowance | null;
  /** Whether the player may grant an allowance in the same step (published games only). */
  canGrantAllowance: boolean;
}

/** The player's answer: no, or yes with a daily limit typed (a decimal string) or none. */
export type LoginDecision = { approved: false } | { approved: true; dailyLimit: string | null };

/** The calls and the dialog the arcade handlers use for a `login` request. */
export interface LoginHost {
  info(requestorId: string, userCode: string): Promise<CliLoginInfo>;
  allowance(gameId: string): Promise<Allowance | null>;
  ask(prompt: LoginPrompt): Promise<LoginDecision>;
  approve(requestorId: string, userCode: string, dailyLimit: string | null): Promise<void>;
  reject(requestorId: string, userCode: string): Promise<void>;
}

/**
 * The login dialog's state and the calls behind it, for a page hosting a game: pass `host` to the
 * arcade handlers and render `dialog`. `approvals` counts the logins approved here, so what shows
 * the game's allowance can read it again (an approval may have granted one).
 */
export function useLoginApproval(): { host: LoginHost; dialog: ReactNode; approvals: number } {
  const session = useSession();
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const [pending, setPending] = useState<{
    prompt: LoginPrompt;
    resolve: (decision: LoginDecision) => void;
  } | null>(null);
  const pendingRef = useRef(pending);
  const [approvals, setApprovals] = useState(0);

  const cli = (requestorId: string) => `/cli/${encodeURIComponent(requestorId)}`;

  const hostRef = useRef<LoginHost>({
    info: (requestorId, userCode) =>
      requestJson<CliLoginInfo>(
        `/auth${cli(requestorId)}/info?code=${encodeURIComponent(userCode)}`,
      ),
    allowance: async (gameId) => {
      try {
        return await allowancesApi(sessionRef.current.call).get(gameId);
      } catch {
        return null;
      }
    },
    ask: (prompt) =>
      new Promise<LoginDecision>((resolve) => {
        // One dialog at a time: a game asking again meanwhile is told no.
        if (pendingRef.current !== null) return resolve({ approved: false });
        const next = { prompt, resolve };
        pendingRef.current = next;
        setPending(next);
      }),
    approve: async (requestorId, userCode, dailyLimit) => {
      await sessionRef.current.callAuth(
        `${cli(requestorId)}/approve`,
        dailyLimit === null ? { userCode } : { userCode, dailyLimit },
      );
      setApprovals((n) => n + 1);
    },
    reject: async (requestorId, userCode) => {
      await sessionRef.current.callAuth(`${cli(requestorId)}/reject`, { userCode });
    },
  });

  const decide = useCallback((decision: LoginDecision) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    current?.resolve(decision);
  }, []);

  return {
    host: hostRef.current,
    dialog: pending && <LoginDialog prompt={pending.prompt} onDecide={decide} />,
    approvals,
  };
}

/** Asks the player to sign in to the game, naming the device and code, with an allowance field. */
function LoginDialog({
  prompt,
  onDecide,
}: {
  prompt: LoginPrompt;
  onDecide: (decision: LoginDecision) => void;
}) {
  const [dailyLimit, setDailyLimit] = useState('');
  const inputId = useId();
  const hintId = useId();
  const typed = dailyLimit.trim();
  const invalid = typed !== '' && !HST_AMOUNT.test(typed);
  const armed = useArmed();
  return (
    <Modal title={`Sign in to ${prompt.gameName}?`} onCancel={() => onDecide({ approved: false })}>
      <dl className="approval-facts">
        <dt>Game</dt>
        <dd>{prompt.gameName}</dd>
        <dt>Signing in</dt>
        <dd>{prompt.description}</dd>
        <dt>Code</dt>
        <dd>
          <code>{prompt.userCode}</code>
        </dd>
      </dl>
      <p>
        The game&apos;s server learns your player id and name. It moves no HST by signing you in: it
        can open plays for you only within the daily allowance you give it.
      </p>
      {prompt.canGrantAllowance && (
        <div className="field">
          <label htmlFor={inputId}>HST a day this game may charge you (optional)</label>
          <input
            id={inputId}
            inputMode="decimal"
            autoComplete="off"
            spellCheck={false}
            value={dailyLimit}
            aria-describedby={hintId}
            aria-invalid={invalid || undefined}
            onChange={(event) => setDailyLimit(event.target.value)}
          />
          <p id={hintId} className="muted">
            {prompt.allowance === null ? '' : `${describeAllowance(prompt.allowance)} `}
            Leave it empty to keep it as it is.
          </p>
          {invalid && (
            <p role="alert" className="error">
              Type an amount of HST, like 5 or 2.5.
            </p>
          )}
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={() => onDecide({ approved: false })}>
          Reject
        </button>
        <button
          type="button"
          className="primary"
          disabled={invalid || !armed}
          onClick={() => onDecide({ approved: true, dailyLimit: typed === '' ? null : typed })}
        >
          Sign in
        </button>
      </div>
    </Modal>
  );
}
