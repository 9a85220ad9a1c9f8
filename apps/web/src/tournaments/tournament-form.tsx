import type { ReactNode } from 'react';
import { ErrorAlert } from '../portal/parts.js';
import {
  useTournamentForm,
  type Repeat,
  type Split,
  type TournamentFormProps,
  type TournamentFormState,
} from './use-tournament-form.js';
import './tournament-form.css';

export type { GameChoice } from './use-tournament-form.js';

/**
 * The form that creates a tournament (docs/concepts/tournaments.md), shared by the developer
 * portal (a game of theirs, the guarantee from their balance) and the operator console (any game,
 * picked here, the guarantee from the arcade's account). Refusals are shown by the field they name.
 */
export function TournamentForm(props: TournamentFormProps) {
  const form = useTournamentForm(props);
  const { id, choices, submit, pickedGame, setPickedGame, name, setName } = form;
  const { entryFee, setEntryFee, formError, busy } = form;
  const { fieldError, describedBy, invalid } = fieldHelpers(form);

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
      <ScheduleFields form={form} />
      <EntryLimitFields form={form} />
      <PrizeFields form={form} funder={props.funder} />
      <ErrorAlert error={formError} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Create tournament
        </button>
      </div>
    </form>
  );
}

/** When the first round starts (in the browser's zone), how long a round lasts, and repeats. */
function ScheduleFields({ form }: { form: TournamentFormState }) {
  const { id, zone, start, cron, startsAt, setStartsAt, length, setLength } = form;
  const { lengthUnit, setLengthUnit, repeat, setRepeat } = form;
  const { fieldError, describedBy, invalid } = fieldHelpers(form);
  return (
    <>
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
    </>
  );
}

/** The optional caps: players per round, attempts per player. */
function EntryLimitFields({ form }: { form: TournamentFormState }) {
  const { id, maxEntrants, setMaxEntrants, maxAttempts, setMaxAttempts } = form;
  const { fieldError, describedBy, invalid } = fieldHelpers(form);
  return (
    <>
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
    </>
  );
}

/** How the pool is split among the places, and the guarantee paid into each round. */
function PrizeFields({
  form,
  funder,
}: {
  form: TournamentFormState;
  funder: TournamentFormProps['funder'];
}) {
  const { id, split, setSplit, custom, setCustom, guaranteedPool, setGuaranteedPool } = form;
  const { balance } = form;
  const { fieldError, describedBy, invalid } = fieldHelpers(form);
  return (
    <>
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
    </>
  );
}

/** A field's message, tied to its input by aria-describedby, and its aria attributes. */
function fieldHelpers({ id, errors }: { id: string; errors: Record<string, string> }) {
  /** A field's message, tied to its input by aria-describedby. */
  const fieldError = (field: string): ReactNode =>
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
  return { fieldError, describedBy, invalid };
}
