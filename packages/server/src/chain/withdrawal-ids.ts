import { v5 as uuidv5 } from 'uuid';

/**
 * The namespace of the ids of the transfers that settle a withdrawal's reservation (UUIDv5, RFC
 * 9562 §5.5). Fixed forever: a withdrawal settled again must get the same id, so the ledger
 * answers `exists` rather than settling twice.
 */
const WITHDRAWAL_NAMESPACE = '6f1d3c0e-8b0a-4f7e-9a51-2c4d7be0a3f9';

/** The id of the transfer that posts (paid) or voids (refused) withdrawal `withdrawalId`. */
export function withdrawalSettleId(withdrawalId: string, outcome: 'post' | 'void'): string {
  return uuidv5(`${withdrawalId.toLowerCase()}:${outcome}`, WITHDRAWAL_NAMESPACE);
}
