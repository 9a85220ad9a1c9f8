import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, type ErrorCode } from '@coinop/protocol';
import { HTTP_STATUS } from '../../src/listener/errors.js';

const DOC_PATH = 'docs/reference/errors.md';
const DOC = new URL('../../../../docs/reference/errors.md', import.meta.url);

interface DocRow {
  code: string;
  status: number;
  title: string;
  cause: string;
  fix: string;
}

/** The rows of the catalogue table: `| \`code\` | status | title | cause | fix |`. */
function docRows(): DocRow[] {
  const rows: DocRow[] = [];
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    const match = /^\|\s*`([a-z0-9_]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!match) continue;
    const cells = (match[2] ?? '').split('|').map((c) => c.trim());
    rows.push({
      code: match[1] ?? '',
      status: Number(cells[0]),
      title: cells[1] ?? '',
      cause: cells[2] ?? '',
      fix: cells[3] ?? '',
    });
  }
  return rows;
}

const codes = Object.keys(ErrorCodes) as ErrorCode[];

describe('error catalogue, status table and docs/reference/errors.md agree', () => {
  const rows = docRows();
  const byCode = new Map(rows.map((r) => [r.code, r]));

  it('gives every code an HTTP status, and no status to an unknown code', () => {
    expect(codes.filter((code) => typeof HTTP_STATUS[code] !== 'number')).toEqual([]);
    expect(Object.keys(HTTP_STATUS).filter((code) => !(code in ErrorCodes))).toEqual([]);
    for (const code of codes) {
      const status = HTTP_STATUS[code];
      expect({ code, status, isError: status >= 400 && status <= 599 }).toEqual({
        code,
        status,
        isError: true,
      });
    }
  });

  it(`has one row in ${DOC_PATH} per code`, () => {
    const missing = codes.filter((code) => !byCode.has(code));
    expect(missing, `add a row to ${DOC_PATH} for each of: ${missing.join(', ')}`).toEqual([]);
    const unknown = rows.map((r) => r.code).filter((code) => !(code in ErrorCodes));
    expect(unknown, `${DOC_PATH} lists codes the catalogue lacks`).toEqual([]);
    const duplicated = rows.map((r) => r.code).filter((c, i, all) => all.indexOf(c) !== i);
    expect(duplicated, `${DOC_PATH} lists a code twice`).toEqual([]);
  });

  it('documents each code with its status and title, a cause and a fix', () => {
    for (const code of codes) {
      const row = byCode.get(code);
      if (!row) continue; // Reported by the test above.
      expect({ code, status: row.status, title: row.title }).toEqual({
        code,
        status: HTTP_STATUS[code],
        title: ErrorCodes[code],
      });
      expect({ code, hasCause: row.cause !== '', hasFix: row.fix !== '' }).toEqual({
        code,
        hasCause: true,
        hasFix: true,
      });
    }
  });
});
