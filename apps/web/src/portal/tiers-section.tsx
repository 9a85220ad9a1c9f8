import { useId, useState, type FormEvent } from 'react';
import type {
  DeveloperGame,
  DeveloperTier,
  TierRequest,
  TierUpdateRequest,
} from '@coinop/protocol';
import { ConfirmDialog, ErrorAlert, Status, errorText, usePortalApi } from './parts.js';
import { ApiError } from '../api.js';

/**
 * The game's leaderboard tiers: add, rename or reprice, retire. The last live tier cannot be
 * retired, so its button is disabled.
 */
export function TiersSection({
  game,
  onChange,
}: {
  game: DeveloperGame;
  onChange: () => Promise<void>;
}) {
  const api = usePortalApi();
  const [editing, setEditing] = useState<string | null>(null);
  const [retiring, setRetiring] = useState<DeveloperTier | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const live = game.leaderboards.length;

  return (
    <section className="portal-section" aria-labelledby="tiers-heading">
      <h2 id="tiers-heading">Leaderboard tiers</h2>
      <p className="muted">
        Players choose a tier and lock its cost for each play. A new cost applies to plays opened
        afterwards; open plays settle at the cost they locked.
      </p>
      <Status text={status} />
      <ul className="portal-list">
        {game.leaderboards.map((tier) => (
          <li key={tier.id} className="portal-card tier">
            {editing === tier.id ? (
              <TierForm
                title={`Edit tier “${tier.name}”`}
                initial={tier}
                submitLabel="Save tier"
                onCancel={() => setEditing(null)}
                onSubmit={async (body) => {
                  const changed: TierUpdateRequest = {};
                  if (body.name !== tier.name) changed.name = body.name;
                  if (body.cost !== tier.cost) changed.cost = body.cost;
                  if (Object.keys(changed).length > 0) {
                    await api.updateTier(game.id, tier.id, changed);
                  }
                  setEditing(null);
                  setStatus(`Tier “${body.name}” saved.`);
                  await onChange();
                }}
              />
            ) : (
              <TierFacts
                tier={tier}
                canRetire={live > 1}
                onEdit={() => setEditing(tier.id)}
                onRetire={() => setRetiring(tier)}
              />
            )}
          </li>
        ))}
      </ul>
      <details className="add-tier">
        <summary>Add a tier</summary>
        <TierForm
          title="New tier"
          initial={null}
          submitLabel="Add tier"
          onSubmit={async (body) => {
            await api.addTier(game.id, body);
            setStatus(`Tier “${body.name}” added.`);
            await onChange();
          }}
        />
      </details>
      {retiring !== null && (
        <ConfirmDialog
          title={`Retire tier “${retiring.name}”?`}
          confirmLabel="Retire tier"
          onDone={() => setRetiring(null)}
          onConfirm={async () => {
            await api.retireTier(game.id, retiring.id);
            setStatus(`Tier “${retiring.name}” retired.`);
            await onChange();
          }}
        >
          <p>
            It takes no new plays and leaves the game page. Plays already open still settle, and its
            leaders stay readable. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** A tier's name, cost, leaders kept and id, with Edit and Retire (not the last live tier). */
function TierFacts({
  tier,
  canRetire,
  onEdit,
  onRetire,
}: {
  tier: DeveloperTier;
  canRetire: boolean;
  onEdit: () => void;
  onRetire: () => void;
}) {
  return (
    <>
      <h3 className="card-title">{tier.name}</h3>
      <dl className="facts">
        <dt>Cost</dt>
        <dd>{tier.formattedCostString} per play</dd>
        <dt>Leaders kept</dt>
        <dd>{tier.leadersMax}</dd>
        <dt>Tier id</dt>
        <dd className="mono">{tier.id}</dd>
      </dl>
      <div className="row-actions">
        <button type="button" aria-label={`Edit tier “${tier.name}”`} onClick={onEdit}>
          Edit
        </button>
        <button
          type="button"
          aria-label={`Retire tier “${tier.name}”`}
          disabled={!canRetire}
          title={!canRetire ? 'The last tier of a game cannot be retired' : undefined}
          onClick={onRetire}
        >
          Retire
        </button>
      </div>
    </>
  );
}

/** A new tier, or the name and cost of one; leaders kept is chosen only when adding. */
function TierForm({
  title,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  title: string;
  initial: DeveloperTier | null;
  submitLabel: string;
  onSubmit: (body: TierRequest) => Promise<void>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(initial?.name ?? '');
  const [cost, setCost] = useState(initial === null ? '' : String(initial.cost));
  const [leadersMax, setLeadersMax] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A refusal that names the tier's name (a name another live tier has): shown by its field.
  const [nameError, setNameError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setNameError(null);
    try {
      const body: TierRequest = {
        name: name.trim(),
        cost: Number(cost),
      };
      if (initial === null && leadersMax !== '') body.leadersMax = Number(leadersMax);
      await onSubmit(body);
      if (initial === null) {
        setName('');
        setCost('');
        setLeadersMax('');
      }
    } catch (e) {
      if (e instanceof ApiError && e.field === 'name') setNameError(tierNameText(e));
      else setError(`Could not save the tier: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="tier-form" aria-label={title} onSubmit={(event) => void submit(event)}>
      <TierNameField
        id={`${id}-name`}
        value={name}
        error={nameError}
        onChange={(value) => {
          setName(value);
          setNameError(null);
        }}
      />
      <div className="field">
        <label htmlFor={`${id}-cost`}>Cost per play (whole HST)</label>
        <input
          id={`${id}-cost`}
          type="number"
          required
          min={0}
          step={1}
          inputMode="numeric"
          value={cost}
          onChange={(e) => setCost(e.target.value)}
        />
      </div>
      {initial === null && (
        <div className="field">
          <label htmlFor={`${id}-leaders`}>Leaders kept (optional)</label>
          <input
            id={`${id}-leaders`}
            type="number"
            min={1}
            max={100}
            step={1}
            inputMode="numeric"
            value={leadersMax}
            onChange={(e) => setLeadersMax(e.target.value)}
          />
        </div>
      )}
      <ErrorAlert error={error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** The tier's name, with the arcade's refusal of it (a name taken) beside it. */
function TierNameField(props: {
  id: string;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}) {
  const { id, value, error, onChange } = props;
  return (
    <div className="field">
      <label htmlFor={id}>Tier name</label>
      <input
        id={id}
        required
        maxLength={100}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error === null ? undefined : true}
        aria-describedby={error === null ? undefined : `${id}-error`}
      />
      {error !== null && (
        <p id={`${id}-error`} className="error field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** What a refusal of a tier's name says beside the field. */
function tierNameText(error: ApiError): string {
  return error.code === 'tier_name_taken'
    ? 'Another tier of this game already has this name: choose another.'
    : `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
}
