import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { formatHst, type Withdrawal } from '@coinop/protocol';
import { isAddress } from 'viem';
import { errorText } from '../portal/parts.js';
import { ApiError } from '../api.js';
import { shortAddress } from '../components/address.js';
import { useSession } from '../session/session.js';
import { formatHstUnits, hstUnits, parseHstAmount } from './hst-amounts.js';
import type { WithdrawalsApi } from './withdrawals-api.js';

/** How often the list is read again while a withdrawal is queued or sent. */
const IN_FLIGHT_POLL_MS = 2_000;

const inFlight = (w: Withdrawal) => w.status === 'queued' || w.status === 'sent';

/**
 * The withdrawals, newest first: read again whenever HST moved in this page, and every few
 * seconds while one is queued or sent; `onChange` hears when one settled.
 */
export function useWithdrawalList(api: WithdrawalsApi, onChange: () => void) {
  const [list, setList] = useState<readonly Withdrawal[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // Read again whenever HST moved in this page (a withdrawal asked for here, a faucet grant...).
  const { moneyMoves } = useSession();

  const load = useCallback(async () => {
    try {
      const page = await api.list();
      setLoadError(null);
      setList((before) => {
        // A withdrawal that settled since the last read changed what the wallet and balance hold.
        const settled = page.withdrawals.some(
          (w) =>
            !inFlight(w) && before?.some((b) => b.withdrawalId === w.withdrawalId && inFlight(b)),
        );
        if (settled) onChangeRef.current();
        return page.withdrawals;
      });
    } catch (e) {
      setLoadError(`Could not load the withdrawals: ${errorText(e)}`);
    }
  }, [api]);

  useEffect(() => {
    void load();
  }, [load, moneyMoves]);

  const polling = list?.some(inFlight) ?? false;
  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => void load(), IN_FLIGHT_POLL_MS);
    return () => clearInterval(timer);
  }, [polling, load]);

  return { list, loadError, load };
}

/** The withdraw form: amount and wallet checked here, then the request, said how it went. */
export function useWithdrawForm({
  api,
  availableUnits,
  defaultTo,
  onChange,
  load,
}: {
  api: WithdrawalsApi;
  availableUnits: bigint | null;
  defaultTo: string | null;
  onChange: () => void;
  load: () => Promise<void>;
}) {
  const [amount, setAmount] = useState('');
  const [to, setTo] = useState(defaultTo ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const toInput = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    const checked = parseHstAmount(amount);
    if (checked.error !== null) {
      setError(checked.error);
      amountInput.current?.focus();
      return;
    }
    if (availableUnits !== null && checked.units > availableUnits) {
      setError(
        `That is more than you can withdraw: ${formatHstUnits(availableUnits)} is available.`,
      );
      amountInput.current?.focus();
      return;
    }
    const address = to.trim();
    if (!isAddress(address, { strict: false }) || /^0x0{40}$/i.test(address)) {
      setError('Enter the wallet address to pay: 0x followed by 40 hexadecimal characters.');
      toInput.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const withdrawal = await api.request(
        { amount: formatHst(checked.units), to: address },
        crypto.randomUUID(),
      );
      setAmount('');
      setStatus(
        `Withdrawal of ${formatHstUnits(hstUnits(withdrawal.amount))} to ${shortAddress(withdrawal.to)} ` +
          'requested: the amount is reserved, and the list below shows when it is paid.',
      );
      onChange();
      await load();
    } catch (e) {
      setError(`Could not withdraw: ${withdrawalErrorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return { amount, setAmount, to, setTo, busy, error, status, amountInput, toInput, submit };
}

/** The arcade's refusal, with the numbers it gives where it gives them. */
function withdrawalErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'chain_not_ready') {
    return 'the arcade has not reached its chain yet; try again in a minute.';
  }
  return errorText(error);
}
