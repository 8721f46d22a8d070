import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { WorkspaceRepository } from 'src/modules/identity/application/ports/workspace.repository';
import type { Workspace } from 'src/modules/identity/domain/workspace';
import { WorkspaceEntity } from 'src/modules/identity/infrastructure/identity.entities';
import { toWorkspace } from 'src/modules/identity/infrastructure/identity.mappers';

@Injectable()
export class TypeormWorkspaceRepository extends WorkspaceRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get workspaces() {
    return this.db.repository(WorkspaceEntity);
  }

  async create(sId: string, name: string): Promise<Workspace> {
    return toWorkspace(await this.workspaces.save(this.workspaces.create({ sId, name })));
  }

  async findBySId(sId: string): Promise<Workspace | null> {
    const found = await this.workspaces.findOneBy({ sId });
    return found && toWorkspace(found);
  }

  async findById(id: number): Promise<Workspace | null> {
    const found = await this.workspaces.findOneBy({ id });
    return found && toWorkspace(found);
  }

  async findByName(name: string): Promise<Workspace[]> {
    return (await this.workspaces.find({ where: { name }, order: { id: 'ASC' } })).map(toWorkspace);
  }
}
