/**
 * What other contexts use of identity: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { ApiKeysService } from 'src/modules/identity/application/api-keys.service';
export { MemberRemoved, WorkspaceCreated } from 'src/modules/identity/application/identity.events';
export { SpacesService } from 'src/modules/identity/application/spaces.service';
export { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
export { SpaceNotFound } from 'src/modules/identity/domain/identity.errors';
export type { Space } from 'src/modules/identity/domain/space';
export { IdentityModule } from 'src/modules/identity/identity.module';
