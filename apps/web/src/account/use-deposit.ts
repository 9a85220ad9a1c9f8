import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { PlayerDepositList } from '@coinop/protocol';
import type { Address, Hash, PublicClient } from 'viem';
import { errorText } from '../portal/parts.js';
import { useSession, type Session } from '../session/session.js';
import type { WalletKind } from '../session/wallets.js';
import {
  CHAIN_POLL_MS,
  ChainWalletError,
  NO_GAS_MESSAGE,
  explainChainError,
  sendDeposit,
  walletHoldings,
  type ReadyChain,
  type WalletHoldings,
} from './chain-wallet.js';
import type { Progress } from './deposit-progress.js';
import { formatHstUnits, parseHstAmount } from './hst-amounts.js';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Who deposits what where: the deposit section's props, less its display. */
export interface DepositParty {
  chain: ReadyChain;
  reader: PublicClient;
  kind: WalletKind;
  address: Address;
  playerId: string;
  onCredited: () => void;
}

/**
 * A deposit from the wallet: its holdings (read again whenever HST moved), the typed amount, and
 * the deposit sent and followed to the arcade's credit (or until the page is left).
 */
export function useDeposit({ chain, reader, kind, address, playerId, onCredited }: DepositParty) {
  // The wallet's holdings are read again whenever HST moved (a faucet grant, a withdrawal paid).
  const { call, moneyMoves } = useSession();
  const [amount, setAmount] = useState('');
  const [holdings, setHoldings] = useState<WalletHoldings | null>(null);
  const [holdingsError, setHoldingsError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const tracking = useRef<AbortController | null>(null);

  const readHoldings = useCallback(async () => {
    try {
      setHoldings(await walletHoldings(reader, chain, address));
      setHoldingsError(null);
    } catch (e) {
      setHoldingsError(`Could not read your wallet on the chain: ${explainChainError(e)}`);
    }
  }, [reader, chain, address]);

  useEffect(() => {
    void readHoldings();
  }, [readHoldings, moneyMoves]);
  useEffect(() => () => tracking.current?.abort(), []);

  const track = (hash: Hash, amountUnits: bigint, signal: AbortSignal) =>
    trackDeposit(
      { reader, chain, call, readHoldings, setProgress, onCredited },
      hash,
      amountUnits,
      signal,
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const checked = parseHstAmount(amount);
    const refuse = (message: string) => {
      setError(message);
      amountInput.current?.focus();
    };
    if (checked.error !== null) return refuse(checked.error);
    if (holdings !== null && checked.units > holdings.hstUnits) {
      return refuse(`Your wallet holds only ${formatHstUnits(holdings.hstUnits)}.`);
    }
    if (holdings !== null && holdings.gasWei === 0n) return refuse(NO_GAS_MESSAGE);
    tracking.current?.abort();
    const amountUnits = checked.units;
    setProgress({ step: 'sending', amountUnits });
    let hash: Hash;
    try {
      hash = await sendDeposit({ chain, reader, kind, address, amountUnits, accountId: playerId });
    } catch (e) {
      setProgress(null);
      return refuse(e instanceof ChainWalletError ? e.message : errorText(e));
    }
    setAmount('');
    setProgress({ step: 'pending', amountUnits, hash });
    const controller = new AbortController();
    tracking.current = controller;
    await track(hash, amountUnits, controller.signal);
  };

  const busy =
    progress !== null &&
    (progress.step === 'sending' ||
      progress.step === 'pending' ||
      progress.step === 'confirming' ||
      progress.step === 'crediting');

  return { amount, setAmount, holdings, holdingsError, error, progress, amountInput, submit, busy };
}

/** Follows a sent deposit until the arcade credits it (or the page is left). */
async function trackDeposit(
  {
    reader,
    chain,
    call,
    readHoldings,
    setProgress,
    onCredited,
  }: {
    reader: PublicClient;
    chain: ReadyChain;
    call: Session['call'];
    readHoldings: () => Promise<void>;
    setProgress: (progress: Progress) => void;
    onCredited: () => void;
  },
  hash: Hash,
  amountUnits: bigint,
  signal: AbortSignal,
): Promise<void> {
  try {
    const receipt = await reader.waitForTransactionReceipt({
      hash,
      pollingInterval: CHAIN_POLL_MS,
    });
    if (signal.aborted) return;
    void readHoldings();
    if (receipt.status === 'reverted') {
      setProgress({ step: 'reverted', amountUnits, hash });
      return;
    }
    const needed = chain.confirmations;
    for (;;) {
      const head = await reader.getBlockNumber({ cacheTime: 0 });
      const done = Number(head - receipt.blockNumber);
      if (done >= needed || signal.aborted) break;
      setProgress({ step: 'confirming', amountUnits, hash, done, needed });
      await sleep(CHAIN_POLL_MS, signal);
    }
    while (!signal.aborted) {
      setProgress({ step: 'crediting', amountUnits, hash });
      const { deposits } = await call<PlayerDepositList>(`/player/deposits/${hash}`);
      const deposit = deposits[0];
      if (deposit) {
        setProgress(
          deposit.status === 'credited'
            ? { step: 'credited', amountUnits, hash }
            : { step: 'held', amountUnits, hash, reason: deposit.heldReason },
        );
        onCredited();
        return;
      }
      await sleep(CHAIN_POLL_MS, signal);
    }
  } catch (e) {
    if (!signal.aborted) {
      setProgress({ step: 'lost', amountUnits, hash, error: explainChainError(e) });
    }
  }
}
