import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { UsageReportView } from 'src/modules/usage/application/views/usage-report.view';
import { usageCsv } from 'src/modules/usage/http/usage-csv';

const sums = {
  runs: 1,
  messages: 1,
  promptTokens: 10,
  completionTokens: 2,
  reasoningTokens: 0,
  durationMs: 5,
};

function modelReport(...modelIds: string[]): UsageReportView {
  return {
    start: '2026-03-01',
    end: '2026-03-02',
    groupBy: ['model'],
    rows: modelIds.map((modelId) => ({ modelProviderId: 'openai', modelId, ...sums })),
    total: sums,
  };
}

/** The data rows' modelId cells, as written (between the provider's cell and the sums). */
const modelCells = (csv: string) =>
  csv
    .split('\r\n')
    .slice(1, -1)
    .map((line) => line.slice('"openai",'.length, -',1,1,10,2,0,5'.length));

describe('usageCsv', () => {
  it('quotes every text cell and leaves numbers bare', () => {
    expect(usageCsv(modelReport('gpt-test'))).toBe(
      '"modelProviderId","modelId","runs","messages","promptTokens","completionTokens","reasoningTokens","durationMs"\r\n' +
        '"openai","gpt-test",1,1,10,2,0,5\r\n',
    );
  });

  it.each([
    ['=1+1', `"'=1+1"`],
    ['x;=1+1', `"'x;=1+1"`],
    ['x|@SUM(A1)', `"'x|@SUM(A1)"`],
    ['x\t-2', `"'x\t-2"`],
    ['x, +cmd', `"'x, +cmd"`],
    ['x;\uFF1D1', `"'x;\uFF1D1"`],
    ['say "hi"', '"say ""hi"""'],
    ['a-b+c', '"a-b+c"'],
  ])('guards %j as %s', (modelId, shown) => {
    expect(modelCells(usageCsv(modelReport(modelId)))).toEqual([shown]);
  });

  it('never lets a cell, whatever it holds, start a formula in any piece a separator splits off', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('=', '+', '-', '@', ';', ',', '|', '\t', ' ', 'x', '"') }),
        (text) => {
          const shown = modelCells(usageCsv(modelReport(`m${text}`)))[0];
          const value = shown.slice(1, -1).replace(/""/g, '"');
          const guarded = value.startsWith("'");
          const pieces = value.split(/[;|\t,]/).slice(1);
          expect(guarded || pieces.every((piece) => !/^\s*[=+\-@]/.test(piece))).toBe(true);
        },
      ),
    );
  });
});
