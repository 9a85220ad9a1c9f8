import type { ApprovalPrompt } from '../bridge/arcade-handlers.js';
import { Modal } from './modal.js';

/**
 * Asks the player to approve a play (lock a tier's cost) or a payment to the game's developer,
 * with their balance; Approve is disabled when they cannot afford it. Their wallet signs after.
 */
export function ApprovalDialog({
  prompt,
  onDecide,
}: {
  prompt: ApprovalPrompt;
  onDecide: (approved: boolean) => void;
}) {
  const cost = prompt.kind === 'play' ? prompt.tier.cost : prompt.amount;
  const affordable = prompt.balance >= cost;
  return (
    <Modal
      title={prompt.kind === 'play' ? 'Lock HST to play?' : 'Pay the developer?'}
      onCancel={() => onDecide(false)}
    >
      <dl className="approval-facts">
        <dt>Game</dt>
        <dd>{prompt.gameName}</dd>
        {prompt.kind === 'play' && (
          <>
            <dt>Tier</dt>
            <dd>{prompt.tier.name}</dd>
          </>
        )}
        <dt>{prompt.kind === 'play' ? 'Cost' : 'Amount'}</dt>
        <dd>{cost} HST</dd>
        <dt>Your balance</dt>
        <dd>{prompt.balance} HST</dd>
      </dl>
      <p>
        {prompt.kind === 'play'
          ? 'The cost is locked for this play and pays the leaders, the developer and the arcade when you score. Your wallet signs the approval.'
          : 'The HST goes to the game’s developer for what the game offers. Your wallet signs the payment.'}
      </p>
      {!affordable && (
        <p role="alert" className="error">
          Not enough HST: you have {prompt.balance} HST.
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={() => onDecide(false)}>
          Reject
        </button>
        <button
          type="button"
          className="primary"
          disabled={!affordable}
          onClick={() => onDecide(true)}
        >
          Approve
        </button>
      </div>
    </Modal>
  );
}
