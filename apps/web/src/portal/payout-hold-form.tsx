import { useId, useState, type FormEvent } from 'react';
import { HOLD_UNITS, holdDuration, holdInUnits } from '../components/hold-duration.js';
import { ErrorAlert, Status, errorText } from './parts.js';
import './payout-hold.css';

/** The longest hold the arcade takes: 30 days (core: PAYOUT_HOLD_MAX_SECONDS). */
const HOLD_MAX_SECONDS = 30 * 86_400;

/** What a hold is, in one sentence: "Payouts held 24 h before they are paid (its own)." */
export function holdSentence(seconds: number, from: string): string {
  const what =
    seconds > 0
      ? `Payouts held ${holdDuration(seconds)} before they are paid`
      : 'Payouts paid at once, with no hold';
  return `${what} (${from}).`;
}

/**
 * The payout hold of a game or a tier: its own value, or empty to inherit (the operator's
 * default for a game, the game's hold for a tier). Amounts of time in days, hours or minutes;
 * the API takes whole seconds.
 */
export function PayoutHoldForm({
  label,
  own,
  inherited,
  inheritedFrom,
  clearLabel,
  onSave,
}: {
  label: string;
  /** The hold set here in seconds; null inherits. */
  own: number | null;
  /** The hold in force when none is set here. */
  inherited: number;
  /** Where the inherited hold comes from, e.g. "operator default". */
  inheritedFrom: string;
  clearLabel: string;
  onSave: (seconds: number | null) => Promise<void>;
}) {
  const id = useId();
  const start = own === null ? { value: '', unitSeconds: 3600 } : holdInUnits(own);
  const [value, setValue] = useState(start.value);
  const [unitSeconds, setUnitSeconds] = useState(start.unitSeconds);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const save = async (seconds: number | null) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      await onSave(seconds);
      if (seconds === null) setValue('');
      setStatus(seconds === null ? `Hold cleared: ${inheritedFrom} applies.` : 'Hold saved.');
    } catch (e) {
      setError(`Could not save the hold: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') return void save(null);
    const amount = Number(value);
    const seconds = Math.round(amount * unitSeconds);
    if (!Number.isFinite(amount) || amount < 0) {
      setError('Enter a hold of 0 or more, or leave it empty to inherit.');
    } else if (seconds > HOLD_MAX_SECONDS) {
      setError('A hold is at most 30 days.');
    } else {
      void save(seconds);
    }
  };

  const inForce = own ?? inherited;
  return (
    <form className="tier-form hold-form" aria-label={label} onSubmit={submit}>
      <p className="hold-summary">
        {holdSentence(inForce, own === null ? inheritedFrom : 'set here')}
      </p>
      <div className="hold-fields">
        <div className="field">
          <label htmlFor={`${id}-value`}>Hold</label>
          <input
            id={`${id}-value`}
            type="number"
            min={0}
            step="any"
            placeholder={`${holdDuration(inherited)} (${inheritedFrom})`}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-unit`}>Unit</label>
          <select
            id={`${id}-unit`}
            value={unitSeconds}
            onChange={(e) => setUnitSeconds(Number(e.target.value))}
          >
            {HOLD_UNITS.map((u) => (
              <option key={u.label} value={u.seconds}>
                {u.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorAlert error={error} />
      <Status text={status} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Save hold
        </button>
        {own !== null && (
          <button type="button" disabled={busy} onClick={() => void save(null)}>
            {clearLabel}
          </button>
        )}
      </div>
    </form>
  );
}
