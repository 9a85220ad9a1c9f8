import { getAddress, isAddress } from 'viem';
import { useCopy } from './toasts.js';

/**
 * Wallet addresses as a person reads them, the one way everywhere in the web app: EIP-55
 * checksummed (`0x70997970C51812dc3A010C7d01b50e0d17dc79C8`), whatever case the arcade stored or
 * the API sent (it keeps them lowercase), and shortened the same way where room is short
 * (`0x7099…79C8`), the whole address then in the tooltip, for screen readers and in copy.
 * Text that is not an address (a typo in a form, an operator's search) is shown as it is.
 */

/** The address EIP-55 checksummed; anything that is not an address, unchanged. */
export function checksummed(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address;
}

/** The first 4 and last 4 hexadecimal digits of the checksummed address: `0x7099…79C8`. */
export function shortAddress(address: string): string {
  const full = checksummed(address);
  return full.length === 42 ? `${full.slice(0, 6)}…${full.slice(-4)}` : full;
}

/**
 * An address on a page: checksummed, in full (wrapping where it must) or `short`; with a Copy
 * button when `copy` is set (it copies the whole checksummed address).
 */
export function Address({
  address,
  short = false,
  copy = false,
}: {
  address: string;
  short?: boolean;
  copy?: boolean;
}) {
  const full = checksummed(address);
  const shown = short ? shortAddress(full) : full;
  return (
    <span className="address">
      <code className={short ? 'mono nowrap' : 'mono'} title={full} data-address={full}>
        {shown === full ? (
          full
        ) : (
          <>
            <span aria-hidden="true">{shown}</span>
            <span className="visually-hidden">{full}</span>
          </>
        )}
      </code>
      {copy && (
        <>
          {' '}
          <CopyAddress address={full} />
        </>
      )}
    </span>
  );
}

function CopyAddress({ address }: { address: string }) {
  const copy = useCopy();
  return (
    <button
      type="button"
      className="small"
      aria-label={`Copy address ${address}`}
      onClick={() => void copy(address, 'Address')}
    >
      Copy
    </button>
  );
}
