import {
  formatHst,
  readHst,
  type ApprovedPurchaseRequest,
  type Purchase,
  type ReceiveHstTransferMessage,
} from '@coinop/protocol';
import type { ArcadeConsent } from './arcade-consent.js';
import { NOT_SIGNED_IN, signedInPlayer, type ArcadeHost } from './arcade-host.js';
import { randomUuid } from './demo-handlers.js';

/** A payment the game asks for (bridge `hstTransfer`): approved, signed, paid from the balance. */
export async function payHst(
  host: ArcadeHost,
  consent: ArcadeConsent,
  amount: number,
): Promise<ReceiveHstTransferMessage> {
  const { sign, failed } = consent;
  const player = await signedInPlayer(host);
  if (player === null) return { refusal: NOT_SIGNED_IN };
  const game = host.game();
  // The game names a number of HST (spec 4.10); it is read once, exactly as the arcade reads
  // it, and from then on the player sees, signs and pays these base units.
  const asked = readHst(amount);
  if (asked.problem !== null || asked.units === 0n) {
    const why = asked.problem === null ? 'must be more than 0' : asked.why;
    host.tell(
      `${game.name} asked for a payment the arcade cannot make: the amount ${why}. ` +
        'Nothing was paid.',
      'error',
    );
    return {};
  }
  const amountUnits = asked.units;
  const decision = await host.ask({
    kind: 'purchase',
    gameName: game.name,
    amountUnits,
    balanceUnits: player.balanceUnits,
  });
  if (decision !== 'balance' || player.balanceUnits < amountUnits) return {};
  const signed = await sign(player.signer, {
    kind: 'purchase',
    gameId: game.id,
    gameName: game.name,
    amountUnits,
    nonce: randomUuid(),
  });
  if (signed === null) return {};
  try {
    const paid = await host.post<Purchase>(`/player/games/${game.id}/purchases`, {
      amount: formatHst(amountUnits),
      ...signed,
    } satisfies ApprovedPurchaseRequest);
    host.changed();
    return { txid: paid.txid };
  } catch (error) {
    failed('The payment', error);
    return {};
  }
}
