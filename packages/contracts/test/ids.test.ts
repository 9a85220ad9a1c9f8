import { bytes16ToUuid, HST_DECIMALS, UNITS_PER_HST, uuidToBytes16 } from '@coinop/contracts';
import { describe, expect, it } from 'vitest';

describe('ids and units', () => {
  it('passes a UUID as bytes16 and back, lower-cased', () => {
    const uuid = '0190A6F1-7C3B-7E2A-9D4C-5B6A7F8E9D0C';
    expect(uuidToBytes16(uuid)).toBe('0x0190a6f17c3b7e2a9d4c5b6a7f8e9d0c');
    expect(bytes16ToUuid(uuidToBytes16(uuid))).toBe(uuid.toLowerCase());
  });

  it('refuses what is not a UUID or a bytes16', () => {
    for (const bad of [
      '',
      '0190a6f17c3b7e2a9d4c5b6a7f8e9d0c',
      '0190a6f1-7c3b-7e2a-9d4c-5b6a7f8e9d0',
      'g190a6f1-7c3b-7e2a-9d4c-5b6a7f8e9d0c',
    ]) {
      expect(() => uuidToBytes16(bad)).toThrow(new TypeError(`not a UUID: ${JSON.stringify(bad)}`));
    }
    for (const bad of [
      '0x',
      '0x0190a6f17c3b7e2a9d4c5b6a7f8e9d0c00',
      '0190a6f17c3b7e2a9d4c5b6a7f8e9d0c',
    ]) {
      expect(() => bytes16ToUuid(bad as `0x${string}`)).toThrow(
        new TypeError(`not a bytes16: ${JSON.stringify(bad)}`),
      );
    }
  });

  it('counts 10^8 base units to the HST, as the ledger does', () => {
    expect(HST_DECIMALS).toBe(8);
    expect(UNITS_PER_HST).toBe(10n ** 8n);
  });
});
