import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../api.js';
import { useSession, type WalletChoice } from '../session/session.js';
import { WalletError } from '../session/wallets.js';
import { cliLoginInfo, decideCliLogin, type CliLoginInfo } from './cli-login-api.js';

export type Outcome = 'approved' | 'denied' | 'expired';

/** HST a day as the API takes it: digits, at most 8 decimals. */
const DAILY_LIMIT_PATTERN = /^\d+(\.\d{1,8})?$/;

/**
 * The CLI login request the page shows (who asks, the code, the game), and how it ended: already
 * decided or expired when read, or decided here. The result's heading takes the focus.
 */
export function useCliLoginRequest(requestorId: string, userCode: string) {
  const [info, setInfo] = useState<CliLoginInfo | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ kind: Outcome; grantedDailyLimit: string | null }>();
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (requestorId === '' || userCode === '') return;
    let cancelled = false;
    cliLoginInfo(requestorId, userCode).then(
      (loaded) => {
        if (cancelled) return;
        setInfo(loaded);
        if (loaded.status !== 'pending')
          setOutcome({ kind: loaded.status, grantedDailyLimit: null });
      },
      (e: unknown) => {
        if (cancelled) return;
        setLoadError(
          e instanceof ApiError && (e.status === 404 || e.status === 400)
            ? 'This sign-in request was not found, or its code does not match. Start signing in ' +
                'again from your game.'
            : (e as Error).message,
        );
      },
    );
    return () => {
      cancelled = true;
    };
  }, [requestorId, userCode]);

  useEffect(() => {
    if (outcome) resultHeading.current?.focus();
  }, [outcome]);

  return { info, loadError, outcome, setOutcome, resultHeading };
}

/**
 * Signing in here (with any wallet) and approving or rejecting the request with the session;
 * approving a published game's login may set its daily allowance.
 */
export function useCliLoginDecision({
  requestorId,
  userCode,
  info,
  setOutcome,
}: {
  requestorId: string;
  userCode: string;
  info: CliLoginInfo | null;
  setOutcome: (outcome: { kind: Outcome; grantedDailyLimit: string | null }) => void;
}) {
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [switching, setSwitching] = useState(false);
  const [importing, setImporting] = useState(false);
  const [dailyLimit, setDailyLimit] = useState('');
  /** Set on signing in here, so step 2's heading takes the focus once it is shown. */
  const [justSignedIn, setJustSignedIn] = useState(false);
  const decisionHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!justSignedIn || decisionHeading.current === null) return;
    decisionHeading.current.focus();
    setJustSignedIn(false);
  }, [justSignedIn, session.state]);

  const signedIn = session.state.status === 'signed-in' ? session.state : null;
  const allowanceAsked = info?.game?.published === true;

  const connect = async (choice: WalletChoice) => {
    setBusy(true);
    setError(null);
    try {
      await session.connect(choice);
      setSwitching(false);
      setJustSignedIn(true);
    } catch (e) {
      setError(
        e instanceof WalletError && e.rejected
          ? 'The wallet request was declined, so you were not signed in.'
          : `Could not sign in: ${(e as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };

  const decide = async (approve: boolean, event?: FormEvent) => {
    event?.preventDefault();
    if (signedIn === null) return;
    setError(null);
    const typed = dailyLimit.trim();
    if (approve && allowanceAsked && typed !== '' && !DAILY_LIMIT_PATTERN.test(typed)) {
      setError(
        'Enter the HST a day as a number such as 20 or 2.5 (at most 8 decimals), or leave it ' +
          'empty.',
      );
      document.getElementById('cli-daily-limit')?.focus();
      return;
    }
    setBusy(true);
    try {
      const decided = await decideCliLogin(
        signedIn.token,
        requestorId,
        approve
          ? { approve, userCode, dailyLimit: allowanceAsked && typed !== '' ? typed : null }
          : { approve, userCode },
      );
      setOutcome({
        kind: decided.status === 'approved' ? 'approved' : 'denied',
        grantedDailyLimit: decided.grantedDailyLimit,
      });
    } catch (e) {
      if (e instanceof ApiError && ['expired_token', 'cli_request_expired'].includes(e.code)) {
        setOutcome({ kind: 'expired', grantedDailyLimit: null });
      } else if (e instanceof ApiError && e.status === 401) {
        session.signOut();
        setError(`Your sign-in has expired. Choose your wallet again. (${e.message})`);
      } else {
        setError((e as Error).message);
      }
    } finally {
      setBusy(false);
    }
  };

  const steps = {
    signedIn,
    allowanceAsked,
    busy,
    switching,
    setSwitching,
    importing,
    setImporting,
  };
  return { ...steps, error, setError, dailyLimit, setDailyLimit, decisionHeading, connect, decide };
}
