import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeyAuthenticator } from 'src/platform/auth/api-key-authenticator';
import { AuthGuard } from 'src/platform/auth/auth.guard';
import { RateLimitModule } from 'src/platform/auth/rate-limit/rate-limit.module';
import { ApiKeysService } from 'src/modules/identity/application/api-keys.service';
import { AuthenticationService } from 'src/modules/identity/application/authentication.service';
import { ApiKeyRepository } from 'src/modules/identity/application/ports/api-key.repository';
import { MemberRepository } from 'src/modules/identity/application/ports/member.repository';
import { SpaceRepository } from 'src/modules/identity/application/ports/space.repository';
import { WorkspaceRepository } from 'src/modules/identity/application/ports/workspace.repository';
import { SpacesService } from 'src/modules/identity/application/spaces.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { ApiKeysController } from 'src/modules/identity/http/api-keys.controller';
import { MembersController } from 'src/modules/identity/http/members.controller';
import { SpacesController } from 'src/modules/identity/http/spaces.controller';
import { TypeormApiKeyRepository } from 'src/modules/identity/infrastructure/typeorm-api-key.repository';
import { TypeormMemberRepository } from 'src/modules/identity/infrastructure/typeorm-member.repository';
import { TypeormSpaceRepository } from 'src/modules/identity/infrastructure/typeorm-space.repository';
import { TypeormWorkspaceRepository } from 'src/modules/identity/infrastructure/typeorm-workspace.repository';

@Module({
  imports: [RateLimitModule],
  controllers: [MembersController, ApiKeysController, SpacesController],
  providers: [
    WorkspacesService,
    ApiKeysService,
    SpacesService,
    AuthenticationService,
    { provide: WorkspaceRepository, useClass: TypeormWorkspaceRepository },
    { provide: MemberRepository, useClass: TypeormMemberRepository },
    { provide: SpaceRepository, useClass: TypeormSpaceRepository },
    { provide: ApiKeyRepository, useClass: TypeormApiKeyRepository },
    { provide: ApiKeyAuthenticator, useExisting: AuthenticationService },
    // The one global guard lives with the context that knows API keys; it also limits their rate.
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [WorkspacesService, ApiKeysService, SpacesService],
})
export class IdentityModule {}
