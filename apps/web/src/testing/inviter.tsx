import type { TestingInvitation } from '@coinop/protocol';
import { Address, shortAddress } from '../components/address.js';

/**
 * Who invited the player, as they would recognise them: the developer's wallet (checksummed, as
 * every address in the arcade), after their name in the arcade when they chose one (not the
 * arcade's short form of the wallet).
 */
export function Inviter({ invitation }: { invitation: TestingInvitation }) {
  const { developerName, developerWallet } = invitation;
  // The arcade's default name is the wallet's short form, in the case it stored.
  const named =
    developerName !== null &&
    developerName.toLowerCase() !== shortAddress(developerWallet).toLowerCase();
  return named ? (
    <span className="inviter">
      {developerName} (<Address address={developerWallet} />)
    </span>
  ) : (
    <Address address={developerWallet} />
  );
}
