// The shell blocks of the Markdown docs, split into the commands a reader would paste one at a
// time.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Fence languages that hold commands for a shell. */
export const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'zsh']);

/** Whether a repository path is documentation whose shell blocks are checked: every Markdown file. */
export function isDocFile(path) {
  return path.endsWith('.md');
}

/** Every shell block of the Markdown files git tracks under `root`. */
export function docBlocks(root) {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(isDocFile);
  return files.flatMap((file) => extractBlocks(readFileSync(join(root, file), 'utf8'), file));
}

/**
 * Every fenced shell block of a Markdown text: `{ file, line, lang, commands }`, `line` being the
 * 1-based line of the opening fence. Fences indented inside list items count, their indentation
 * removed from the content as Markdown does.
 */
export function extractBlocks(markdown, file) {
  const lines = markdown.split('\n');
  const blocks = [];
  let fence = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence === null) {
      const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
      if (open) {
        fence = { indent: open[1].length, marker: open[2], lang: open[3], line: i + 1, body: [] };
      }
      continue;
    }
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
    if (close && close[1][0] === fence.marker[0] && close[1].length >= fence.marker.length) {
      if (SHELL_LANGUAGES.has(fence.lang)) {
        const text = fence.body.join('\n');
        blocks.push({
          file,
          line: fence.line,
          lang: fence.lang,
          commands: splitCommands(text, fence.line + 1, `${file}:${fence.line}`),
        });
      }
      fence = null;
      continue;
    }
    fence.body.push(stripIndent(line, fence.indent));
  }
  return blocks;
}

function stripIndent(line, indent) {
  let cut = 0;
  while (cut < indent && line[cut] === ' ') cut++;
  return line.slice(cut);
}

/**
 * Splits a shell script into its commands: a command goes on past a line ending in a backslash
 * and past the end of a line inside quotes or `$(…)`; blank and comment-only lines separate
 * commands. Each command is `{ text, code, line }`: `text` as written, `code` without comments and
 * with its whitespace collapsed (what matching compares), `line` where it starts.
 */
export function splitCommands(script, firstLine = 1, where = 'script') {
  const commands = [];
  const lines = script.split('\n');
  const scanner = new Scanner(where);
  let current = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (current === null) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      current = { text: line, code: [], line: firstLine + i };
    } else {
      current.text += `\n${line}`;
    }
    const { code, continues } = scanner.scanLine(line, firstLine + i);
    current.code.push(code);
    if (!continues) {
      commands.push({
        text: current.text,
        code: normalize(current.code.join('\n')),
        line: current.line,
      });
      current = null;
    }
  }
  if (current !== null) {
    throw new Error(`${where}: the command at line ${current.line} never ends (an open quote?)`);
  }
  return commands;
}

/** Whitespace (and backslash-newlines) collapsed to single spaces. */
export function normalize(command) {
  return command.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Enough of the shell's lexer to know where a command ends and where a comment starts: quotes,
 * backquotes, `$(…)` and subshells, backslash escapes. Heredocs are refused rather than misread.
 */
class Scanner {
  constructor(where) {
    this.where = where;
    /** Open contexts, innermost last: "'", '"', '`' or '('. */
    this.stack = [];
  }

  /** The line's code (comment removed) and whether the command goes on past it. */
  scanLine(line, lineNumber) {
    const top = () => this.stack[this.stack.length - 1];
    let end = line.length;
    let escapedNewline = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      const context = top();
      if (context === "'") {
        if (c === "'") this.stack.pop();
        continue;
      }
      if (c === '\\') {
        if (i === line.length - 1) escapedNewline = true;
        i++;
        continue;
      }
      if (context === '"') {
        if (c === '"') this.stack.pop();
        else if (c === '`') this.stack.push('`');
        else if (c === '$' && line[i + 1] === '(') {
          this.stack.push('(');
          i++;
        }
        continue;
      }
      if (context === '`') {
        if (c === '`') this.stack.pop();
        continue;
      }
      // Top level or inside $(…): words, quotes, comments.
      if (c === "'" || c === '"' || c === '`') this.stack.push(c);
      else if (c === '(') this.stack.push('(');
      else if (c === ')' && context === '(') this.stack.pop();
      else if (c === '#' && (i === 0 || /[\s;|&(]/.test(line[i - 1]))) {
        end = i;
        break;
      } else if (c === '<' && line[i + 1] === '<') {
        if (line[i + 2] !== '<') {
          throw new Error(
            `${this.where}: line ${lineNumber} has a heredoc, which is not supported`,
          );
        }
        i += 2; // a here-string, one word: nothing to read past the line
      }
    }
    return { code: line.slice(0, end), continues: escapedNewline || this.stack.length > 0 };
  }
}
