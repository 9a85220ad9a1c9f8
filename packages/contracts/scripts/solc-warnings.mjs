// What the contracts build prints of solc's errors and warnings: every error and every warning in
// our own contracts in full, another package's warning in one line, and none of the warnings
// known to be harmless, so that a warning printed is one to look at.

/**
 * solc warns wherever transient storage (EIP-1153) is used, and OpenZeppelin's TransientSlot uses
 * it by design: it holds ReentrancyGuardTransient's lock, which the vault uses on purpose (the
 * lock lives only as long as the transaction).
 */
export const KNOWN_HARMLESS = [
  {
    file: '@openzeppelin/contracts/utils/TransientSlot.sol',
    message: /^Transient storage as defined by EIP-1153 can break the composability/,
  },
];

/** solc's standard-JSON `errors` as the lines to print, errors and warnings apart. */
export function solcMessages(problems) {
  const errors = [];
  const warnings = [];
  for (const problem of problems) {
    const file = problem.sourceLocation?.file ?? '';
    const text = problem.formattedMessage ?? problem.message;
    if (problem.severity === 'error') errors.push(text);
    else if (KNOWN_HARMLESS.some((k) => k.file === file && k.message.test(problem.message)))
      continue;
    else if (file.startsWith('@openzeppelin/')) {
      warnings.push(`warning in ${file}: ${problem.message.split(': ')[0]}`);
    } else warnings.push(text);
  }
  return { errors, warnings };
}
