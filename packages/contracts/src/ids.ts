import type { Hex } from 'viem';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BYTES16 = /^0x[0-9a-f]{32}$/i;

/**
 * A coinop id (a UUID) as the contracts take it, `bytes16`.
 *
 * @example
 * uuidToBytes16('0190a6f1-7c3b-7e2a-9d4c-5b6a7f8e9d0c'); // '0x0190a6f17c3b7e2a9d4c5b6a7f8e9d0c'
 */
export function uuidToBytes16(uuid: string): Hex {
  if (!UUID.test(uuid)) throw new TypeError(`not a UUID: ${JSON.stringify(uuid)}`);
  return `0x${uuid.replaceAll('-', '').toLowerCase()}`;
}

/**
 * A `bytes16` from a contract event back to the UUID it was made from.
 *
 * @example
 * bytes16ToUuid('0x0190a6f17c3b7e2a9d4c5b6a7f8e9d0c'); // '0190a6f1-7c3b-7e2a-9d4c-5b6a7f8e9d0c'
 */
export function bytes16ToUuid(value: Hex): string {
  if (!BYTES16.test(value)) throw new TypeError(`not a bytes16: ${JSON.stringify(value)}`);
  const hex = value.slice(2).toLowerCase();
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20),
  ].join('-');
}
