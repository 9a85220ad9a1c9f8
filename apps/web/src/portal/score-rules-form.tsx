import { useId, useState, type FormEvent } from 'react';
import type { ScoreRules, TierScoreRules } from '@coinop/protocol';
import { groupedNumber } from '@coinop/protocol';
import { ErrorAlert, Status, errorText } from './parts.js';

/** The form's text fields: empty means no rule (a game) or inherit (a tier). */
interface RuleTexts {
  minScore: string;
  maxScore: string;
  minPlaySeconds: string;
  replay: string;
}

/** What a form submits: every field, null where it is empty (the API clears it). */
export type RulesChange = {
  minScore: number | null;
  maxScore: number | null;
  minPlayMs: number | null;
  replay: ScoreRules['replay'] | null;
};

const textOf = (value: number | null) => (value === null ? '' : String(value));
const numberOf = (text: string) => (text.trim() === '' ? null : Number(text));

function textsOf(rules: ScoreRules | TierScoreRules): RuleTexts {
  return {
    minScore: textOf(rules.minScore),
    maxScore: textOf(rules.maxScore),
    minPlaySeconds: rules.minPlayMs === null ? '' : String(rules.minPlayMs / 1000),
    replay: rules.replay ?? '',
  };
}

function changeOf(texts: RuleTexts): RulesChange {
  const seconds = numberOf(texts.minPlaySeconds);
  return {
    minScore: numberOf(texts.minScore),
    maxScore: numberOf(texts.maxScore),
    // Whole milliseconds, as the API takes them: 2.5 s is 2500 ms.
    minPlayMs: seconds === null ? null : Math.round(seconds * 1000),
    replay: texts.replay === '' ? null : (texts.replay as ScoreRules['replay']),
  };
}

/**
 * The four score rules of a game (`inherit` false: empty is "no rule") or of a tier (`inherit`
 * true: empty inherits the game's rule, shown as the placeholder).
 */
export function ScoreRulesForm({
  label,
  rules,
  inherited,
  onSave,
}: {
  label: string;
  rules: ScoreRules | TierScoreRules;
  /** The game's rules a tier inherits; absent for the game's own form. */
  inherited?: ScoreRules;
  onSave: (change: RulesChange) => Promise<void>;
}) {
  const id = useId();
  const [texts, setTexts] = useState(() => textsOf(rules));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const hint = (value: number | null, unit = '') =>
    inherited === undefined
      ? 'none'
      : value === null
        ? 'none (game)'
        : `${groupedNumber(value)}${unit} (game)`;
  const field = (key: keyof RuleTexts, text: string, placeholder: string, step = 'any') => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{text}</label>
      <input
        id={`${id}-${key}`}
        type="number"
        min={0}
        step={step}
        placeholder={placeholder}
        value={texts[key]}
        onChange={(e) => setTexts({ ...texts, [key]: e.target.value })}
      />
    </div>
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      await onSave(changeOf(texts));
      setStatus('Score rules saved.');
    } catch (e) {
      setError(`Could not save the score rules: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const minPlay = inherited?.minPlayMs ?? null;
  return (
    <form className="tier-form" aria-label={label} onSubmit={(event) => void submit(event)}>
      {field('minScore', 'Lowest possible score', hint(inherited?.minScore ?? null))}
      {field('maxScore', 'Highest possible score', hint(inherited?.maxScore ?? null))}
      {field(
        'minPlaySeconds',
        'Shortest possible run (seconds)',
        hint(minPlay === null ? null : minPlay / 1000, ' s'),
        '0.001',
      )}
      <div className="field">
        <label htmlFor={`${id}-replay`}>Replays</label>
        <select
          id={`${id}-replay`}
          value={texts.replay}
          onChange={(e) => setTexts({ ...texts, replay: e.target.value })}
        >
          {inherited !== undefined && (
            <option value="">
              As the game ({inherited.replay === 'required' ? 'required' : 'off'})
            </option>
          )}
          <option value="off">Off</option>
          <option value="required">Required and verified</option>
        </select>
      </div>
      <ErrorAlert error={error} />
      <Status text={status} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Save score rules
        </button>
      </div>
    </form>
  );
}
