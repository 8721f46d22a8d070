import { DomainError } from 'src/platform/errors/domain-error';

export class WakeUpNotFound extends DomainError {
  constructor(sId: string) {
    super('wakeup_not_found', `Wake-up ${sId} not found in this conversation.`);
  }
}
