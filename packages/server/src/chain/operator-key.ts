import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { getAddress, type Hex } from 'viem';
import { UnsealError, type SecretBox } from '../credentials/secret-box.js';

/**
 * The operator's signing key (`OPERATOR_ROLE` on the vault), kept in a file encrypted under the
 * secrets key (AES-256-GCM, SecretBox), so a copy of the file alone pays nothing out. The file is
 * JSON: the key's address in clear (to show it without the secrets key) and the sealed key. The
 * key is never logged; errors name the file, never its contents.
 */

/** What the sealed key is bound to: a sealed value from another use does not open as this. */
const CONTEXT = 'chain_operator_key';
const FORMAT = 'coinop-operator-key/v1';

export class OperatorKeyError extends Error {
  override readonly name = 'OperatorKeyError';
}

interface KeyFile {
  format: typeof FORMAT;
  address: string;
  sealed: string;
}

/**
 * Writes `privateKey` (0x and 64 hex digits) sealed into a new file `path` with mode 0600, making
 * its directory (mode 0700) if missing, as `/etc/coinop` is on a new machine; refuses to overwrite
 * a file. Returns the key's address.
 */
export async function writeOperatorKeyFile(
  path: string,
  box: SecretBox,
  privateKey: string,
): Promise<`0x${string}`> {
  const text = privateKey.trim();
  const hex = (text.startsWith('0x') ? text : `0x${text}`) as Hex;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) {
    throw new OperatorKeyError('the operator key must be 64 hex digits (a secp256k1 private key)');
  }
  let address: `0x${string}`;
  try {
    address = privateKeyToAccount(hex).address;
  } catch {
    throw new OperatorKeyError('the operator key is not a valid secp256k1 private key');
  }
  const file: KeyFile = {
    format: FORMAT,
    address,
    sealed: box.seal(Buffer.from(hex.slice(2), 'hex'), CONTEXT),
  };
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new OperatorKeyError(
      code === 'EEXIST'
        ? `${path} exists already; remove it first to replace the operator key`
        : `cannot write the operator key file ${path} (${code ?? 'error'})`,
    );
  }
  return address;
}

/** A new random key, written as `writeOperatorKeyFile` does; returns only its address. */
export async function generateOperatorKeyFile(
  path: string,
  box: SecretBox,
): Promise<`0x${string}`> {
  return writeOperatorKeyFile(path, box, generatePrivateKey());
}

/** The operator's account from the key file `path`, opened with the secrets key. */
export async function readOperatorKey(path: string, box: SecretBox): Promise<PrivateKeyAccount> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new OperatorKeyError(`cannot read the operator key file ${path} (${code})`);
  }
  let file: Partial<KeyFile>;
  try {
    file = JSON.parse(text) as Partial<KeyFile>;
  } catch {
    throw new OperatorKeyError(`${path} is not an operator key file (not JSON)`);
  }
  if (
    file.format !== FORMAT ||
    typeof file.sealed !== 'string' ||
    typeof file.address !== 'string'
  ) {
    throw new OperatorKeyError(`${path} is not an operator key file (format ${FORMAT})`);
  }
  let key: Buffer;
  try {
    key = box.open(file.sealed, CONTEXT);
  } catch (error) {
    const why = error instanceof UnsealError ? error.reason : 'unreadable';
    throw new OperatorKeyError(
      `the operator key file ${path} does not open with this secrets key (${why})`,
    );
  }
  const account = privateKeyToAccount(`0x${key.toString('hex')}`);
  key.fill(0);
  if (account.address !== getAddress(file.address)) {
    throw new OperatorKeyError(`the operator key file ${path} names another address than its key`);
  }
  return account;
}
