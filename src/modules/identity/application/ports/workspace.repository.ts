import type { Workspace } from 'src/modules/identity/domain/workspace';

/** Port: persistence of workspaces. */
export abstract class WorkspaceRepository {
  abstract create(sId: string, name: string): Promise<Workspace>;
  abstract findBySId(sId: string): Promise<Workspace | null>;
  abstract findById(id: number): Promise<Workspace | null>;
  /** Every workspace of that name, oldest first (names are not unique). */
  abstract findByName(name: string): Promise<Workspace[]>;
}
