import { DomainError } from 'src/platform/errors/domain-error';

export class TriggerNotFound extends DomainError {
  constructor(sId: string) {
    super('trigger_not_found', `Trigger ${sId} not found on this agent.`);
  }
}
