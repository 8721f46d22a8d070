import { DomainError } from 'src/platform/errors/domain-error';

export class AgentNotFound extends DomainError {
  constructor(sId: string) {
    super('agent_configuration_not_found', `Agent configuration ${sId} not found.`);
  }
}
