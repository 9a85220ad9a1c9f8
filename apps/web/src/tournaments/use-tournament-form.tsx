import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { Tournament, TournamentPayoutTable } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { errorText } from '../portal/parts.js';
import type { TournamentRequest } from '../portal/portal-api.js';

export type Split = 'podium' | 'winner' | 'top10' | 'custom';
export type Repeat = 'none' | 'daily' | 'weekly';

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

/**
 * The API's message for a field, shown beside it, so without the wire name the label already
 * gives: "entryFee must have at most 8 decimals, got 2.123456789" reads "Must have at most 8
 * decimals, got 2.123456789." under "Entry fee (HST)".
 */
function besideField(field: string, message: string): string {
  if (!message.startsWith(`${field} `)) return message;
  const rest = message.slice(field.length + 1);
  return `${rest.charAt(0).toUpperCase()}${rest.slice(1)}${rest.endsWith('.') ? '' : '.'}`;
}

/** A game the console's picker offers. */
export interface GameChoice {
  id: string;
  name: string;
}

export interface TournamentFormProps {
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
}

/** The tournament form's fields, the funder's balance, and its submit, refusals by field. */
export function useTournamentForm(props: TournamentFormProps) {
  const { game, loadBalance } = props;
  const id = useId();
  const choices = 'choices' in game ? game.choices : null;
  const fields = useTournamentFields();
  const { pickedGame, name, entryFee, startsAt, length, lengthUnit, repeat } = fields;
  const { maxEntrants, maxAttempts, split, custom, guaranteedPool, setName } = fields;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
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
  const values = { name, entryFee, start, length, lengthUnit, cron, maxEntrants, maxAttempts };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFormError(null);
    const request = tournamentRequest(game, pickedGame, split, custom, guaranteedPool, values);
    if ('errors' in request) {
      setErrors(request.errors);
      return;
    }
    const { gameId, body } = request;
    if (props.confirmCreate !== undefined && !props.confirmCreate(gameId, body)) return;
    setBusy(true);
    try {
      const created = await props.create(gameId, body);
      setName('');
      await props.onCreated(created);
      await readBalance();
    } catch (e) {
      if (e instanceof ApiError && e.status === 402) {
        setErrors({
          guaranteedPool: `${capitalized(props.funder.balance)} (${balance ?? '?'} HST) does not cover this guaranteed pool; lower it or ${props.funder.topUp}. Nothing was created.`,
        });
      } else if (e instanceof ApiError && e.field !== null) {
        setErrors({ [FIELD_OF[e.field] ?? e.field]: besideField(e.field, e.message) });
      } else {
        setFormError(`Could not create the tournament: ${errorText(e)}`);
      }
    } finally {
      setBusy(false);
    }
  };

  return { ...fields, id, choices, zone, start, cron, balance, busy, errors, formError, submit };
}

/** The form's fields as typed, each with its setter. */
function useTournamentFields() {
  const [pickedGame, setPickedGame] = useState('');
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
  return {
    pickedGame,
    setPickedGame,
    name,
    setName,
    entryFee,
    setEntryFee,
    startsAt,
    setStartsAt,
    length,
    setLength,
    lengthUnit,
    setLengthUnit,
    repeat,
    setRepeat,
    maxEntrants,
    setMaxEntrants,
    maxAttempts,
    setMaxAttempts,
    split,
    setSplit,
    custom,
    setCustom,
    guaranteedPool,
    setGuaranteedPool,
  };
}

export type TournamentFormState = ReturnType<typeof useTournamentForm>;

/** The request the form sends, or the refusals it shows without sending. */
function tournamentRequest(
  game: TournamentFormProps['game'],
  pickedGame: string,
  split: Split,
  custom: string,
  guaranteedPool: string,
  values: {
    name: string;
    entryFee: string;
    start: Date;
    length: string;
    lengthUnit: 'hours' | 'days';
    cron: string | null;
    maxEntrants: string;
    maxAttempts: string;
  },
): { gameId: string; body: TournamentRequest } | { errors: Record<string, string> } {
  const { name, entryFee, start, length, lengthUnit, cron, maxEntrants, maxAttempts } = values;
  const gameId = 'id' in game ? game.id : pickedGame;
  if (gameId === '') {
    return { errors: { gameId: 'Choose the game the tournament is played in.' } };
  }
  let payoutTable: TournamentPayoutTable;
  if (split === 'custom') {
    const places = customPlaces(custom);
    if (typeof places === 'string') {
      return { errors: { payoutTable: places } };
    }
    payoutTable = { places };
  } else {
    payoutTable = SPLITS[split];
  }
  if (Number.isNaN(start.getTime())) {
    return { errors: { startsAt: 'Choose the date and time the first round starts.' } };
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
  return { gameId, body };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
