// Matches the docs' shell blocks against the manifest: every command is run or skipped with a
// reason, exactly once; an entry that matches nothing is stale. Pure.

const MANIFEST = 'scripts/doc-commands/manifest.mjs';

/**
 * The one item of `items` that `key` names: the item whose code is `key`, else the only one whose
 * code starts with it. Returns `{ match }` or `{ error }`.
 */
export function matchOne(items, key, codeOf) {
  const exact = items.filter((item) => codeOf(item) === key);
  if (exact.length === 1) return { match: exact[0] };
  if (exact.length > 1) return { error: `matches ${exact.length} commands exactly` };
  const prefixed = items.filter((item) => codeOf(item).startsWith(key));
  if (prefixed.length === 1) return { match: prefixed[0] };
  return { error: prefixed.length === 0 ? 'matches nothing' : `matches ${prefixed.length}` };
}

const blockCode = (block) => block.commands[0]?.code ?? '';
const short = (text, max = 100) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * `blocks` from extract.mjs, `entries` from the manifest (in run order). Returns
 * `{ runs, skipped, problems }`: `runs` the entries to run, each with its block and its commands
 * (`{ command, spec }`, `spec.skip` for one it leaves out); `skipped` every command not run
 * (`{ file, line, code, reason }`); `problems` what makes the manifest and the docs disagree.
 */
export function classify(blocks, entries) {
  const problems = [];
  const runs = [];
  const skipped = [];
  /** For each command (by identity), the entries that cover it. */
  const coverage = new Map();
  const cover = (command, label) =>
    coverage.set(command, [...(coverage.get(command) ?? []), label]);

  for (const entry of entries) {
    if (entry.file === undefined) continue; // a step of the runner's own (stopping a server)
    const label = `${entry.file} "${short(entry.block, 60)}"`;
    const inFile = blocks.filter((block) => block.file === entry.file);
    const found = matchOne(inFile, entry.block, blockCode);
    if (!found.match) {
      problems.push(
        `${MANIFEST}: ${label} ${found.error === 'matches nothing' ? `matches no shell block in ${entry.file} (did the doc change?)` : `matches several shell blocks of ${entry.file}: quote more of the first command`}`,
      );
      continue;
    }
    const emptyReason = (reason) => reason !== undefined && !/\S/.test(reason);
    if (
      emptyReason(entry.skip) ||
      Object.values(entry.commands ?? {}).some((c) => emptyReason(c.skip))
    ) {
      problems.push(`${MANIFEST}: ${label}: an empty reason to skip`);
    }
    const block = found.match;
    let selected = block.commands;
    if (entry.part !== undefined) {
      selected = [];
      for (const key of entry.part) {
        const part = matchOne(block.commands, key, (c) => c.code);
        if (part.match) selected.push(part.match);
        else problems.push(`${MANIFEST}: ${label}: part "${key}" ${part.error} in the block`);
      }
    }
    const specs = new Map(selected.map((command) => [command, {}]));
    for (const [key, spec] of Object.entries(entry.commands ?? {})) {
      const one = matchOne(selected, key, (c) => c.code);
      if (one.match) specs.set(one.match, spec);
      else problems.push(`${MANIFEST}: ${label}: command "${key}" ${one.error} in the entry`);
    }
    for (const command of selected) {
      cover(command, label);
      const reason = entry.skip ?? specs.get(command).skip;
      if (reason !== undefined) {
        skipped.push({ file: block.file, line: command.line, code: command.code, reason });
      }
    }
    if (entry.skip === undefined) {
      runs.push({
        entry,
        block,
        commands: selected.map((command) => ({ command, spec: specs.get(command) })),
      });
    }
  }

  for (const block of blocks) {
    for (const command of block.commands) {
      const labels = coverage.get(command) ?? [];
      if (labels.length === 0) {
        problems.push(
          `${block.file}:${command.line}: a shell command neither run nor listed with a reason ` +
            `(add it to ${MANIFEST}):\n    ${short(command.code)}`,
        );
      } else if (labels.length > 1) {
        problems.push(
          `${block.file}:${command.line}: covered by ${labels.length} entries (${labels.join(', ')}):` +
            `\n    ${short(command.code)}`,
        );
      }
    }
  }
  return { runs, skipped, problems };
}
