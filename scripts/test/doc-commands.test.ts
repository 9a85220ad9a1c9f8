import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classify } from '../doc-commands/classify.mjs';
import { docBlocks, extractBlocks, splitCommands } from '../doc-commands/extract.mjs';
import { MANIFEST } from '../doc-commands/manifest.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Issue 28: every shell command of the docs is run by `npm run check:docs` or listed with why not.
// These cover how the commands are found and matched; the run itself is the CI step.

describe('extractBlocks', () => {
  it('takes the sh, bash and shell fences, each with the line of its fence, and nothing else', () => {
    const markdown = [
      '# Title', //                                1
      '```sh', //                                  2
      'npm install', //                            3
      '```', //                                    4
      '```js', //                                  5
      'console.log(1)', //                         6
      '```', //                                    7
      '```bash', //                                8
      'npm start', //                              9
      '```', //                                   10
      '```', //                                   11 (no language: text, not a command)
      'npm run nothing', //                       12
      '```', //                                   13
      '~~~shell', //                              14
      'curl -s http://127.0.0.1:8080/healthz', // 15
      '~~~', //                                   16
    ].join('\n');
    const blocks = extractBlocks(markdown, 'doc.md');
    expect(blocks.map((b) => [b.line, b.lang, b.commands.map((c) => [c.line, c.code])])).toEqual([
      [2, 'sh', [[3, 'npm install']]],
      [8, 'bash', [[9, 'npm start']]],
      [14, 'shell', [[15, 'curl -s http://127.0.0.1:8080/healthz']]],
    ]);
    expect(blocks.every((b) => b.file === 'doc.md')).toBe(true);
  });

  it('reads a fence indented in a list item, and a longer fence that holds a shorter one', () => {
    const markdown = [
      '1. Install:', //                 1
      '', //                            2
      '   ```sh', //                    3
      '   npm install coinop', //       4
      '   ```', //                      5
      '````md', //                      6
      '```sh', //                       7
      'not a block of this file', //    8
      '```', //                         9
      '````', //                       10
    ].join('\n');
    const blocks = extractBlocks(markdown, 'list.md');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.commands).toEqual([
      { text: 'npm install coinop', code: 'npm install coinop', line: 4 },
    ]);
  });
});

describe('splitCommands', () => {
  it('splits on lines, joins continued lines, and drops comments and blank lines', () => {
    const script = [
      '# set up first', //                                      1
      'npx coinop dev-chain deposit --from 0x7099 \\', //       2
      '  --account PLAYER_ID --amount 12.5   # from the log', // 3
      '', //                                                    4
      'npx coinop admin chain deposits      # credited', //     5
    ].join('\n');
    expect(splitCommands(script, 10)).toEqual([
      {
        text: 'npx coinop dev-chain deposit --from 0x7099 \\\n  --account PLAYER_ID --amount 12.5   # from the log',
        code: 'npx coinop dev-chain deposit --from 0x7099 --account PLAYER_ID --amount 12.5',
        line: 11,
      },
      {
        text: 'npx coinop admin chain deposits      # credited',
        code: 'npx coinop admin chain deposits',
        line: 14,
      },
    ]);
  });

  it('keeps a command going inside quotes and $(…), where # is no comment', () => {
    const script = [
      'curl -d \'{"amount": "25",', //        1
      ' "to": "0x90F7#9"}\' # the body', //      2
      'TOKEN=$(coinop admin player token \\', // 3
      '  --player "$ID" | jq -r .token)', //     4
      'echo "a # b" \'c # d\' e#f # g', //       5
    ].join('\n');
    expect(splitCommands(script).map((c) => [c.line, c.code])).toEqual([
      [1, 'curl -d \'{"amount": "25", "to": "0x90F7#9"}\''],
      [3, 'TOKEN=$(coinop admin player token --player "$ID" | jq -r .token)'],
      [5, 'echo "a # b" \'c # d\' e#f'],
    ]);
  });

  it('refuses what it would misread: a heredoc, a quote never closed', () => {
    expect(() => splitCommands('cat <<EOF\nhi\nEOF', 1, 'a.md:3')).toThrow(
      'a.md:3: line 1 has a heredoc',
    );
    expect(() => splitCommands("echo 'open\n\nnext", 5, 'b.md:4')).toThrow(
      'b.md:4: the command at line 5 never ends',
    );
    // A here-string is not a heredoc.
    expect(splitCommands('read -r x <<< "$KEY"').map((c) => c.code)).toEqual([
      'read -r x <<< "$KEY"',
    ]);
  });
});

describe('classify', () => {
  const blocks = [
    ...extractBlocks('```sh\nnpm install\nnpm start\nnpm test\n```\n', 'README.md'),
    ...extractBlocks('```sh\ndocker build -t coinop .\ndocker run coinop\n```\n', 'container.md'),
  ];

  it('runs what an entry names, skips what it gives a reason for, and covers every command', () => {
    const entries = [
      {
        file: 'README.md',
        block: 'npm install',
        commands: { 'npm test': { skip: 'the whole suite' } },
      },
      { file: 'container.md', block: 'docker build', skip: 'needs Docker' },
    ];
    const { runs, skipped, problems } = classify(blocks, entries);
    expect(problems).toEqual([]);
    expect(runs).toHaveLength(1);
    expect(runs[0]?.commands.map((c) => [c.command.code, c.spec.skip])).toEqual([
      ['npm install', undefined],
      ['npm start', undefined],
      ['npm test', 'the whole suite'],
    ]);
    expect(skipped.map((s) => [s.file, s.line, s.code, s.reason])).toEqual([
      ['README.md', 4, 'npm test', 'the whole suite'],
      ['container.md', 2, 'docker build -t coinop .', 'needs Docker'],
      ['container.md', 3, 'docker run coinop', 'needs Docker'],
    ]);
  });

  it('fails a command neither run nor listed, naming its file and line', () => {
    const { problems } = classify(blocks, [{ file: 'README.md', block: 'npm install' }]);
    expect(problems).toEqual([
      expect.stringMatching(
        /^container\.md:2: a shell command neither run nor listed.*\n {4}docker build -t coinop \.$/s,
      ),
      expect.stringMatching(/^container\.md:3: .*\n {4}docker run coinop$/s),
    ]);
  });

  it('fails an entry whose block is gone, an empty reason, and a command covered twice', () => {
    const { problems } = classify(blocks, [
      { file: 'README.md', block: 'npm install' },
      { file: 'README.md', block: 'npm install', part: ['npm start'] },
      { file: 'container.md', block: 'docker build', skip: ' ' },
      { file: 'container.md', block: 'podman build', skip: 'needs Podman' },
    ]);
    expect(problems).toEqual([
      expect.stringContaining('container.md "docker build": an empty reason to skip'),
      expect.stringContaining('container.md "podman build" matches no shell block in container.md'),
      expect.stringMatching(/^README\.md:3: covered by 2 entries/),
    ]);
  });

  it('matches by the start of a command, and refuses a start that fits several', () => {
    const { problems } = classify(blocks, [
      { file: 'README.md', block: 'npm', commands: { 'npm ': {} } },
      { file: 'container.md', block: 'docker', part: ['docker'], skip: 'needs Docker' },
    ]);
    expect(problems).toEqual([
      expect.stringContaining('"npm": command "npm " matches 3 in the entry'),
      expect.stringContaining('"docker": part "docker" matches 2 in the block'),
      expect.stringMatching(/^container\.md:2: a shell command neither run nor listed/),
      expect.stringMatching(/^container\.md:3: a shell command neither run nor listed/),
    ]);
  });
});

describe("the repository's docs", () => {
  it('have every shell command run by the doc check or listed with a reason', () => {
    const blocks = docBlocks(ROOT);
    const { runs, skipped, problems } = classify(blocks, MANIFEST);
    expect(problems).toEqual([]);
    // The README's Quick start is run, not listed.
    const quickStart = runs.find(
      (r) => r.block.file === 'README.md' && r.block.commands[0]?.code === 'npm install',
    );
    expect(quickStart?.commands.map((c) => c.command.code)).toEqual([
      'npm install',
      'npm start',
      'npm test',
    ]);
    expect(skipped.every((s) => s.reason.trim().length > 20)).toBe(true);
  });
});
