import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { DeveloperGame, Tournament, TournamentPayoutTable } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { Hst } from '../components/hst.js';
import { useToast } from '../components/toasts.js';
import { Link } from '../router.js';
import { Countdown } from '../tournaments/countdown.js';
import { hstUnits } from '../tournaments/tournament-api.js';
import type { TournamentRequest } from './portal-api.js';
import { ConfirmDialog, ErrorAlert, errorText, usePortalApi } from './parts.js';
import './tournaments-section.css';

/**
 * The game's tournaments (docs/concepts/tournaments.md): each with its current round, pool and
 * entrants, a link to its public page and Stop; and a form to create one.
 */
export function TournamentsSection({ game }: { game: DeveloperGame }) {
  const api = usePortalApi();
  const toast = useToast();
  const [tournaments, setTournaments] = useState<readonly Tournament[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stopping, setStopping] = useState<Tournament | null>(null);

  const reload = useCallback(async () => {
    try {
      setTournaments(await api.listTournaments(game.id));
      setError(null);
    } catch (e) {
      setError(`Could not load the tournaments: ${errorText(e)}`);
    }
  }, [api, game.id]);
  useEffect(() => {
    void reload();
  }, [reload]);

  return (
    <section className="portal-section" aria-labelledby="tournaments-heading">
      <h2 id="tournaments-heading">Tournaments</h2>
      <p className="muted">
        A tournament is a board with a start and an end and a prize pool: every entry adds the
        leaders&apos; part of its fee to the pool, which the close pays out by the split you choose.
        A repeating one opens its next round as the last one closes.
      </p>
      <ErrorAlert error={error} />
      {tournaments === null && error === null && <p role="status">Loading…</p>}
      {tournaments !== null && tournaments.length === 0 && (
        <p className="muted">No tournaments yet.</p>
      )}
      {tournaments !== null && tournaments.length > 0 && (
        <ul className="portal-list portal-tournaments">
          {tournaments.map((t) => (
            <TournamentItem key={t.id} tournament={t} onStop={() => setStopping(t)} />
          ))}
        </ul>
      )}
      <details className="add-tier">
        <summary>Create a tournament</summary>
        <TournamentForm
          gameId={game.id}
          onCreated={async (created) => {
            toast(`Tournament ${created.name} created.`, 'ok');
            await reload();
          }}
        />
      </details>
      {stopping !== null && (
        <ConfirmDialog
          title={`Stop ${stopping.name}?`}
          confirmLabel="Stop tournament"
          onDone={() => setStopping(null)}
          onConfirm={async () => {
            await api.stopTournament(game.id, stopping.id);
            toast(`Tournament ${stopping.name} stopped.`, 'ok');
            await reload();
          }}
        >
          <p>
            No round after the current one will open. The current round still runs to its end,
            closes and pays its pool as usual. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A schedule in words when it is one the form makes (every day, or every week, at a UTC time),
 * with the cron itself as its title; any other cron as it is.
 */
function Schedule({ cron }: { cron: string }) {
  const m = /^(\d{1,2}) (\d{1,2}) \* \* (\*|[0-6])$/.exec(cron);
  if (m === null) return <span className="mono">{cron}</span>;
  const [, minute, hour, weekday] = m as unknown as [string, string, string, string];
  const at = `${hour.padStart(2, '0')}:${minute.padStart(2, '0')} UTC`;
  const when = weekday === '*' ? 'Every day' : `Every ${WEEKDAYS[Number(weekday)]}`;
  return <span title={`cron ${cron}`}>{`${when} at ${at}`}</span>;
}

function TournamentItem({ tournament: t, onStop }: { tournament: Tournament; onStop: () => void }) {
  const round = t.currentRound;
  return (
    <li className="portal-card">
      <h3 className="card-title">
        {t.name} {t.stoppedAt !== null && <span className="badge">Stopped</span>}
      </h3>
      <dl className="facts">
        <dt>Entry fee</dt>
        <dd>
          <Hst units={hstUnits(t.entryFee)} />
        </dd>
        <dt>Prize split</dt>
        <dd>{splitText(t.payoutTable)}</dd>
        <dt>Repeats</dt>
        <dd>{t.recurrence === null ? 'No' : <Schedule cron={t.recurrence} />}</dd>
        {round === null ? (
          <>
            <dt>Round</dt>
            <dd>No round to come</dd>
          </>
        ) : (
          <>
            <dt>Round</dt>
            <dd>
              {round.number}, {round.status}
              {round.status === 'scheduled' && (
                <>
                  {' · '}
                  <Countdown to={round.startsAt} label="Starts in" />
                </>
              )}
              {round.status === 'open' && (
                <>
                  {' · '}
                  <Countdown to={round.endsAt} label="Ends in" />
                </>
              )}
            </dd>
            <dt>Pool</dt>
            <dd>
              <Hst units={hstUnits(round.pool)} />
            </dd>
            <dt>Entrants</dt>
            <dd>
              {round.entrants}
              {t.maxEntrants !== null && ` of ${t.maxEntrants}`}
            </dd>
          </>
        )}
      </dl>
      <div className="row-actions">
        <Link href={`/tournaments/${encodeURIComponent(t.id)}`}>
          Public page<span className="visually-hidden"> of {t.name}</span>
        </Link>
        {t.stoppedAt === null && (
          <button type="button" aria-label={`Stop ${t.name}`} onClick={onStop}>
            Stop
          </button>
        )}
      </div>
    </li>
  );
}

/** "60% / 40%", or "Top 10% share equally". */
function splitText(table: TournamentPayoutTable): string {
  if ('topPercent' in table) return `Top ${table.topPercent}% share equally`;
  return table.places.map((bp) => `${bp / 100}%`).join(' / ');
}

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

function TournamentForm({
  gameId,
  onCreated,
}: {
  gameId: string;
  onCreated: (created: Tournament) => Promise<void>;
}) {
  const api = usePortalApi();
  const id = useId();
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

  const loadBalance = useCallback(async () => {
    try {
      setBalance((await api.balance()).available);
    } catch {
      setBalance(null);
    }
  }, [api]);
  useEffect(() => {
    void loadBalance();
  }, [loadBalance]);

  const start = new Date(startsAt);
  const cron = repeatCron(start, repeat);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFormError(null);
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
    setBusy(true);
    try {
      const created = await api.createTournament(gameId, body);
      setName('');
      await onCreated(created);
      await loadBalance();
    } catch (e) {
      if (e instanceof ApiError && e.status === 402) {
        setErrors({
          guaranteedPool: `Your balance (${balance ?? '?'} HST) does not cover this guaranteed pool; lower it or earn more first. Nothing was created.`,
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
          Paid into each round&apos;s pool from your balance
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
