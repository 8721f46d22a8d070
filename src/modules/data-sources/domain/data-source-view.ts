import { InvalidRequestError } from 'src/platform/errors/domain-error';
import type { DataSource } from 'src/modules/data-sources/domain/data-source';

/**
 * `default`: the view created with its data source, in the space that owns it, for as long as the
 * data source exists. `custom`: a view that shares the data source into another space.
 */
export const DATA_SOURCE_VIEW_KINDS = ['default', 'custom'] as const;
export type DataSourceViewKind = (typeof DATA_SOURCE_VIEW_KINDS)[number];

export const PARENTS_IN_MAX = 1000;
export const PARENT_ID_MAX = 512;

export interface DataSourceView {
  id: number;
  sId: string;
  workspaceId: number;
  spaceId: number;
  spaceSId: string;
  kind: DataSourceViewKind;
  /** The nodes of the data source the view exposes, with their descendants; null: all of it. */
  parentsIn: string[] | null;
  dataSource: DataSource;
  /** The member who last changed the view: row id, sId, and what clients show of them. */
  editedBy: { userId: number; userSId: string; fullName: string; email: string; image: string | null };
  editedAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** Null or absent keeps the whole data source; a list keeps those nodes, once each, in the given order. */
export function parseParentsIn(parentsIn: readonly string[] | null | undefined): string[] | null {
  if (parentsIn === undefined || parentsIn === null) return null;
  if (parentsIn.length > PARENTS_IN_MAX) {
    throw new InvalidRequestError(`parentsIn: at most ${PARENTS_IN_MAX} parents.`);
  }
  for (const parent of parentsIn) {
    if (parent.trim().length === 0 || parent.length > PARENT_ID_MAX) {
      throw new InvalidRequestError(`parentsIn: each parent id must be 1 to ${PARENT_ID_MAX} characters.`);
    }
  }
  return [...new Set(parentsIn)];
}

/** The default view is how the data source's own space reaches it: it goes only with the data source. */
export function checkViewDeletable(view: DataSourceView): void {
  if (view.kind === 'default') {
    throw new InvalidRequestError(
      `${view.sId} is the default view of data source ${view.dataSource.sId} and cannot be deleted; only custom views can.`,
    );
  }
}

/** Dust's change of a view's parents: some added, some removed, the others kept. */
export interface ParentsChange {
  add: readonly string[];
  remove: readonly string[];
}

/**
 * The parents after `change`, as Dust computes them: a view of the whole data source (null) starts
 * from none, so adding parents restricts it to them; removed ones go before added ones come.
 */
export function changedParentsIn(current: readonly string[] | null, change: ParentsChange): string[] {
  const removed = new Set(change.remove);
  return parseParentsIn([...(current ?? []).filter((parent) => !removed.has(parent)), ...change.add])!;
}

/** Whether a view showing `parentsIn` shows a document with these parents (its own id first). */
export function viewShowsDocument(
  parentsIn: readonly string[] | null,
  documentParents: readonly string[],
): boolean {
  return parentsIn === null || parentsIn.some((parent) => documentParents.includes(parent));
}
