import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { Tournament, TournamentPayoutTable } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { ErrorAlert, errorText } from '../portal/parts.js';
import type { TournamentRequest } from '../portal/portal-api.js';
import './tournament-form.css';

/**
 * The form that creates a tournament (docs/concepts/tournaments.md), shared by the developer
 * portal (a game of theirs, the guarantee from their balance) and the operator console (any game,
 * picked here, the guarantee from the arcade's account). Refusals are shown by the field they name.
 */

type Split = 'podium' | 'winner' | 'top10' | 'custom';
type Repeat = 'none' | 'daily' | 'weekly';

/** `YYYY-MM-DDTHH:MM` in the browser's zone, what a `datetime-local` input holds. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The cron (UTC) that repeats a round at the start's minute, hour and (weekly) weekday. */
export function repeatCron(start: Date, repeat: Repeat): string | null {
  if (repeat === 'none' || Number.isNaN(start.getTime())) return null;
  const base = `${start.getUTCMinutes()} ${start.getUTCHours()} * *`;
  return repeat === 'daily' ? `${base} *` : `${base} ${start.getUTCDay()}`;
}

/** Percentages ("50, 30, 20") as basis points, or a message saying what is wrong. */
export function customPlaces(text: string): number[] | string {
  const parts = text.split(/[\s,/]+/).filter((p) => p !== '');
  if (parts.length === 0) return 'Enter the percent of each place, e.g. 60, 40.';
  const points: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(part))
      return `"${part}" is not a percent (up to 2 decimals).`;
    const bp = Math.round(Number(part) * 100);
    if (bp < 1) return 'Each place must get more than 0%.';
    points.push(bp);
  }
  const total = points.reduce((a, b) => a + b, 0);
  if (total !== 10_000) return `The places must total 100%; they total ${total / 100}%.`;
  return points;
}

const SPLITS: Record<Exclude<Split, 'custom'>, TournamentPayoutTable> = {
  podium: { places: [5000, 3000, 2000] },
  winner: { places: [10_000] },
  top10: { topPercent: 10 },
};

/** Where the API's `details.field` is shown: the form field that sets it. */
const FIELD_OF: Record<string, string> = {
  endsAt: 'durationSeconds',
};

/** A game the console's picker offers. */
export interface GameChoice {
  id: string;
  name: string;
}

export function TournamentForm({
  game,
  create,
  loadBalance,
  funder,
  confirmCreate,
  onCreated,
}: {
  /** The one game the form creates for (the portal), or the games to pick from (the console). */
  game: { id: string } | { choices: readonly GameChoice[] };
  /** Sends the request; the created tournament, or the API's refusal. */
  create: (gameId: string, body: TournamentRequest) => Promise<Tournament>;
  /** HST available to the funder of the guarantee, as exact decimal text. */
  loadBalance: () => Promise<string>;
  /**
   * Who funds the guarantee, in the form's words: `balance` ("your balance") and how to top it
   * up (`topUp`: "earn more first").
   */
  funder: { balance: string; topUp: string };
  /** Asked before sending; false sends nothing (the console asks before moving the arcade's HST). */
  confirmCreate?: (gameId: string, body: TournamentRequest) => boolean;
  onCreated: (created: Tournament) => Promise<void>;
}) {
  const id = useId();
  const choices = 'choices' in game ? game.choices : null;
  const [pickedGame, setPickedGame] = useState('');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [name, setName] = useState('');
  const [entryFee, setEntryFee] = useState('1');
  const [startsAt, setStartsAt] = useState(() =>
    localInputValue(new Date(Math.ceil((Date.now() + 60_000) / 60_000) * 60_000)),
  );
  const [length, setLength] = useState('1');
  const [lengthUnit, setLengthUnit] = useState<'hours' | 'days'>('days');
  const [repeat, setRepeat] = useState<Repeat>('none');
  const [maxEntrants, setMaxEntrants] = useState('');
  const [maxAttempts, setMaxAttempts] = useState('');
  const [split, setSplit] = useState<Split>('podium');
  const [custom, setCustom] = useState('');
  const [guaranteedPool, setGuaranteedPool] = useState('0');
  const [balance, setBalance] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const readBalance = useCallback(async () => {
    try {
      setBalance(await loadBalance());
    } catch {
      setBalance(null);
    }
  }, [loadBalance]);
  useEffect(() => {
    void readBalance();
  }, [readBalance]);

  const start = new Date(startsAt);
  const cron = repeatCron(start, repeat);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFormError(null);
    const gameId = 'id' in game ? game.id : pickedGame;
    if (gameId === '') {
      setErrors({ gameId: 'Choose the game the tournament is played in.' });
      return;
    }
    let payoutTable: TournamentPayoutTable;
    if (split === 'custom') {
      const places = customPlaces(custom);
      if (typeof places === 'string') {
        setErrors({ payoutTable: places });
        return;
      }
      payoutTable = { places };
    } else {
      payoutTable = SPLITS[split];
    }
    if (Number.isNaN(start.getTime())) {
      setErrors({ startsAt: 'Choose the date and time the first round starts.' });
      return;
    }
    const body: TournamentRequest = {
      name: name.trim(),
      entryFee: entryFee.trim(),
      startsAt: start.toISOString(),
      durationSeconds: Number(length) * (lengthUnit === 'days' ? 86_400 : 3_600),
      payoutTable,
      guaranteedPool: guaranteedPool.trim() === '' ? '0' : guaranteedPool.trim(),
    };
    if (cron !== null) body.recurrence = cron;
    if (maxEntrants !== '') body.maxEntrants = Number(maxEntrants);
    if (maxAttempts !== '') body.maxAttempts = Number(maxAttempts);
    if (confirmCreate !== undefined && !confirmCreate(gameId, body)) return;
    setBusy(true);
    try {
      const created = await create(gameId, body);
      setName('');
      await onCreated(created);
      await readBalance();
    } catch (e) {
      if (e instanceof ApiError && e.status === 402) {
        setErrors({
          guaranteedPool: `${capitalized(funder.balance)} (${balance ?? '?'} HST) does not cover this guaranteed pool; lower it or ${funder.topUp}. Nothing was created.`,
        });
      } else if (e instanceof ApiError && e.field !== null) {
        setErrors({ [FIELD_OF[e.field] ?? e.field]: e.message });
      } else {
        setFormError(`Could not create the tournament: ${errorText(e)}`);
      }
    } finally {
      setBusy(false);
    }
  };

  /** A field's message, tied to its input by aria-describedby. */
  const fieldError = (field: string) =>
    errors[field] === undefined ? null : (
      <p id={`${id}-${field}-error`} className="error field-error">
        {errors[field]}
      </p>
    );
  const describedBy = (field: string, hint?: string) => {
    const ids = [hint, errors[field] === undefined ? undefined : `${id}-${field}-error`].filter(
      (x) => x !== undefined,
    );
    return ids.length === 0 ? undefined : ids.join(' ');
  };
  const invalid = (field: string) => (errors[field] === undefined ? undefined : true);

  return (
    <form
      className="tier-form tournament-form"
      aria-label="New tournament"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      {choices !== null && (
        <div className="field">
          <label htmlFor={`${id}-game`}>Game</label>
          <select
            id={`${id}-game`}
            required
            value={pickedGame}
            aria-invalid={invalid('gameId')}
            aria-describedby={describedBy('gameId')}
            onChange={(e) => setPickedGame(e.target.value)}
          >
            <option value="">Choose a game…</option>
            {choices.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
          {fieldError('gameId')}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>Tournament name</label>
        <input
          id={`${id}-name`}
          required
          maxLength={100}
          value={name}
          aria-invalid={invalid('name')}
          aria-describedby={describedBy('name')}
          onChange={(e) => setName(e.target.value)}
        />
        {fieldError('name')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-fee`}>Entry fee (HST)</label>
        <input
          id={`${id}-fee`}
          inputMode="decimal"
          required
          value={entryFee}
          aria-invalid={invalid('entryFee')}
          aria-describedby={describedBy('entryFee')}
          onChange={(e) => setEntryFee(e.target.value)}
        />
        {fieldError('entryFee')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-starts`}>Starts</label>
        <input
          id={`${id}-starts`}
          type="datetime-local"
          required
          value={startsAt}
          aria-invalid={invalid('startsAt')}
          aria-describedby={describedBy('startsAt', `${id}-zone`)}
          onChange={(e) => setStartsAt(e.target.value)}
        />
        <p id={`${id}-zone`} className="muted hint">
          Your time zone: {zone}
          {Number.isNaN(start.getTime()) ? '' : ` (${start.toISOString().slice(0, 16)} UTC)`}
        </p>
        {fieldError('startsAt')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-length`}>Length of a round</label>
        <div className="inline-inputs">
          <input
            id={`${id}-length`}
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            required
            value={length}
            aria-invalid={invalid('durationSeconds')}
            aria-describedby={describedBy('durationSeconds')}
            onChange={(e) => setLength(e.target.value)}
          />
          <select
            aria-label="Length unit"
            value={lengthUnit}
            onChange={(e) => setLengthUnit(e.target.value as 'hours' | 'days')}
          >
            <option value="hours">hours</option>
            <option value="days">days</option>
          </select>
        </div>
        {fieldError('durationSeconds')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-repeat`}>Repeats</label>
        <select
          id={`${id}-repeat`}
          value={repeat}
          aria-describedby={cron === null ? describedBy('recurrence') : `${id}-cron`}
          onChange={(e) => setRepeat(e.target.value as Repeat)}
        >
          <option value="none">No, one round</option>
          <option value="daily">Every day</option>
          <option value="weekly">Every week</option>
        </select>
        {cron !== null && (
          <p id={`${id}-cron`} className="muted hint">
            Schedule (cron, UTC): <code>{cron}</code>
          </p>
        )}
        {fieldError('recurrence')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-entrants`}>Max players (optional)</label>
        <input
          id={`${id}-entrants`}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={maxEntrants}
          aria-invalid={invalid('maxEntrants')}
          aria-describedby={describedBy('maxEntrants')}
          onChange={(e) => setMaxEntrants(e.target.value)}
        />
        {fieldError('maxEntrants')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-attempts`}>Max attempts per player (optional)</label>
        <input
          id={`${id}-attempts`}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={maxAttempts}
          aria-invalid={invalid('maxAttempts')}
          aria-describedby={describedBy('maxAttempts')}
          onChange={(e) => setMaxAttempts(e.target.value)}
        />
        {fieldError('maxAttempts')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-split`}>Prize split</label>
        <select
          id={`${id}-split`}
          value={split}
          aria-describedby={split === 'custom' ? undefined : describedBy('payoutTable')}
          onChange={(e) => setSplit(e.target.value as Split)}
        >
          <option value="podium">50 / 30 / 20</option>
          <option value="winner">Winner takes all</option>
          <option value="top10">Top 10% share equally</option>
          <option value="custom">Custom places</option>
        </select>
        {split === 'custom' && (
          <>
            <label htmlFor={`${id}-custom`}>Percent per place, 1st first</label>
            <input
              id={`${id}-custom`}
              placeholder="60, 30, 10"
              value={custom}
              aria-invalid={invalid('payoutTable')}
              aria-describedby={describedBy('payoutTable')}
              onChange={(e) => setCustom(e.target.value)}
            />
          </>
        )}
        {fieldError('payoutTable')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-pool`}>Guaranteed pool (HST)</label>
        <input
          id={`${id}-pool`}
          inputMode="decimal"
          value={guaranteedPool}
          aria-invalid={invalid('guaranteedPool')}
          aria-describedby={describedBy('guaranteedPool', `${id}-balance`)}
          onChange={(e) => setGuaranteedPool(e.target.value)}
        />
        <p id={`${id}-balance`} className="muted hint">
          Paid into each round&apos;s pool from {funder.balance}
          {balance === null ? '.' : ` (available: ${balance} HST).`}
        </p>
        {fieldError('guaranteedPool')}
      </div>
      <ErrorAlert error={formError} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Create tournament
        </button>
      </div>
    </form>
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
