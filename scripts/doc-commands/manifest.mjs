// Every shell block of the docs, classified: run here (in this order, with what each needs and
// what it promises), or listed with why not. A block in neither fails the check, so a doc cannot
// gain a command nobody runs. How to add one: docs/doc-commands.md.
import { CLONE } from './manifest-clone.mjs';
import { OPERATOR } from './manifest-operator.mjs';
import { SKIPPED } from './manifest-skipped.mjs';

export { SESSIONS } from './sessions.mjs';

/** The entries in run order: the README's reader first, then the operator; then the rest. */
export const MANIFEST = [...CLONE, ...OPERATOR, ...SKIPPED];
