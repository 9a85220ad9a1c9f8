import { v5 as uuidv5 } from 'uuid';

/**
 * The namespace of deposit transfer ids (UUIDv5, RFC 9562 §5.5). Fixed forever: changing it would
 * give every deposit already credited a new id, and a rescan would credit it again.
 */
const DEPOSIT_NAMESPACE = 'dbe63b61-d7ee-446a-bc2b-dda74e680692';

/**
 * The id of the transfer that credits the deposit whose event is log `logIndex` of transaction
 * `txHash` on chain `chainId`: the same wherever and however often the event is read, so the
 * ledger's idempotency by id makes a second credit a no-op.
 *
 * @example
 * depositTransferId(31337, '0xabc…', 2); // always the same UUID for this event
 */
export function depositTransferId(chainId: number, txHash: string, logIndex: number): string {
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new TypeError(`bad chain id ${chainId}`);
  if (!/^0x[0-9a-f]{64}$/i.test(txHash)) throw new TypeError(`bad transaction hash ${txHash}`);
  if (!Number.isSafeInteger(logIndex) || logIndex < 0)
    throw new TypeError(`bad log index ${logIndex}`);
  return uuidv5(`${chainId}:${txHash.toLowerCase()}:${logIndex}`, DEPOSIT_NAMESPACE);
}
