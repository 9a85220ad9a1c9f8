import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { solcMessages, type SolcProblem } from '../scripts/solc-warnings.mjs';

// Issue 28: every `npm install` printed solc's warning about OpenZeppelin's TransientSlot, which
// the vault's reentrancy guard uses on purpose. The build leaves out that one warning and prints
// every other.

const require = createRequire(import.meta.url);
const solc = require('solc') as { compile(input: string, options: object): string };

/** A contract using the vault's reentrancy guard, compiled as scripts/compile.mjs compiles. */
function compileWithTransientGuard(): SolcProblem[] {
  const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
contract Guarded is ReentrancyGuardTransient {
  function guarded() external nonReentrant {}
}
`;
  const input = {
    language: 'Solidity',
    sources: { 'contracts/Guarded.sol': { content: source } },
    settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi'] } } },
  };
  const findImports = (path: string) => ({
    contents: readFileSync(require.resolve(path), 'utf8'),
  });
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: SolcProblem[];
  };
  return output.errors ?? [];
}

describe('the contracts build prints solc warnings that mean something', () => {
  it("leaves out solc's real warning on OpenZeppelin's TransientSlot, and nothing else", () => {
    const problems = compileWithTransientGuard();
    expect(problems.map((p) => [p.severity, p.sourceLocation?.file])).toEqual([
      ['warning', '@openzeppelin/contracts/utils/TransientSlot.sol'],
    ]);
    expect(solcMessages(problems)).toEqual({ errors: [], warnings: [] });
  });

  it('prints errors, our own warnings in full and any other package warning in one line', () => {
    const problems: SolcProblem[] = [
      {
        severity: 'error',
        message: 'Undeclared identifier.',
        formattedMessage: 'DeclarationError: Undeclared identifier.\n --> contracts/A.sol:3:5',
        sourceLocation: { file: 'contracts/A.sol' },
      },
      {
        severity: 'warning',
        message: 'Unused local variable.',
        formattedMessage: 'Warning: Unused local variable.\n --> contracts/A.sol:7:9',
        sourceLocation: { file: 'contracts/A.sol' },
      },
      {
        severity: 'warning',
        message: 'This declaration shadows an existing declaration: see there',
        sourceLocation: { file: '@openzeppelin/contracts/token/ERC20/ERC20.sol' },
      },
      {
        // The same text in another file is not the known one: it is printed.
        severity: 'warning',
        message: 'Transient storage as defined by EIP-1153 can break the composability of x',
        sourceLocation: { file: 'contracts/Mine.sol' },
      },
    ];
    expect(solcMessages(problems)).toEqual({
      errors: ['DeclarationError: Undeclared identifier.\n --> contracts/A.sol:3:5'],
      warnings: [
        'Warning: Unused local variable.\n --> contracts/A.sol:7:9',
        'warning in @openzeppelin/contracts/token/ERC20/ERC20.sol: This declaration shadows an ' +
          'existing declaration',
        'Transient storage as defined by EIP-1153 can break the composability of x',
      ],
    });
  });
});
