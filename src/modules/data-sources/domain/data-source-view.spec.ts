import { describe, expect, it } from '@jest/globals';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import {
  DataSourceView,
  PARENTS_IN_MAX,
  PARENT_ID_MAX,
  checkViewDeletable,
  parseParentsIn,
} from 'src/modules/data-sources/domain/data-source-view';

const at = new Date('2026-01-01T00:00:00Z');

const view = (kind: DataSourceView['kind']): DataSourceView => ({
  id: 1,
  sId: 'dsv_0000000001',
  workspaceId: 1,
  spaceId: 1,
  spaceSId: 'vlt_0000000001',
  kind,
  parentsIn: null,
  dataSource: {
    id: 1,
    sId: 'dts_0000000001',
    workspaceId: 1,
    name: 'Handbook',
    description: '',
    connectorProvider: null,
    connectorId: 'c',
    serviceApiProjectId: 'p',
    assistantDefaultSelected: false,
    textSearchConfig: 'simple',
    createdAt: at,
  },
  editedBy: {
    userId: 1,
    userSId: 'Ada0000001',
    fullName: 'Ada Lovelace',
    email: 'ada@example.com',
    image: null,
  },
  editedAt: at,
  createdAt: at,
  updatedAt: at,
});

describe('parentsIn', () => {
  it('keeps null (the whole data source) and reads absent as null', () => {
    expect(parseParentsIn(null)).toBeNull();
    expect(parseParentsIn(undefined)).toBeNull();
  });

  it('keeps an empty list and each parent once, in order', () => {
    expect(parseParentsIn([])).toEqual([]);
    expect(parseParentsIn(['b', 'a', 'b'])).toEqual(['b', 'a']);
  });

  it('refuses blank or too long parent ids and too many parents, naming the field', () => {
    for (const bad of [
      [''],
      ['  '],
      ['x'.repeat(PARENT_ID_MAX + 1)],
      Array.from({ length: PARENTS_IN_MAX + 1 }, (_, i) => `p${i}`),
    ]) {
      expect(() => parseParentsIn(bad)).toThrow(/^parentsIn: /);
    }
  });
});

describe('deleting a view', () => {
  it('allows a custom view and refuses the default one', () => {
    expect(() => checkViewDeletable(view('custom'))).not.toThrow();
    expect(() => checkViewDeletable(view('default'))).toThrow(InvalidRequestError);
    expect(() => checkViewDeletable(view('default'))).toThrow(/default view of data source dts_0000000001/);
  });
});
