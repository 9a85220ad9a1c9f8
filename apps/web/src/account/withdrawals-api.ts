import type { Withdrawal, WithdrawalList, WithdrawalRequest } from '@coinop/protocol';
import type { Session } from '../session/session.js';

/**
 * Withdrawals of HST to a wallet: the player's (`/api/player/withdrawals`) or the developer's
 * earnings (`/api/developer/withdrawals`), the same routes under two prefixes.
 */
export interface WithdrawalsApi {
  list(): Promise<WithdrawalList>;
  /** `idempotencyKey` makes a retry of the same request answer the same withdrawal. */
  request(body: WithdrawalRequest, idempotencyKey: string): Promise<Withdrawal>;
}

export function withdrawalsApi(
  call: Session['call'],
  prefix: '/player' | '/developer',
): WithdrawalsApi {
  return {
    list: () => call<WithdrawalList>(`${prefix}/withdrawals`),
    request: (body, idempotencyKey) =>
      call<Withdrawal>(`${prefix}/withdrawals`, body, 'POST', {
        'idempotency-key': idempotencyKey,
      }),
  };
}
