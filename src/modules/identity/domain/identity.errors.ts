import { DomainError } from 'src/platform/errors/domain-error';

export class WorkspaceNotFound extends DomainError {
  constructor(reference: string) {
    super('workspace_not_found', `Workspace ${reference} not found.`);
  }
}

export class UserNotFound extends DomainError {
  constructor(reference: string) {
    super('user_not_found', `User ${reference} is not a member of this workspace.`);
  }
}

export class SpaceNotFound extends DomainError {
  constructor(reference: string) {
    super('space_not_found', `Space ${reference} not found.`);
  }
}

export class ApiKeyNotFound extends DomainError {
  constructor(reference: string) {
    super('api_key_not_found', `API key ${reference} not found.`);
  }
}
