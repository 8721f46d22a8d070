/**
 * What other contexts use of triggers: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { AgentSchedulesService } from 'src/modules/triggers/application/agent-schedules.service';
export { TriggerView } from 'src/modules/triggers/application/views/trigger.view';
export { NAME_MAX, PROMPT_MAX } from 'src/modules/triggers/domain/trigger';
export { TriggersConfig } from 'src/modules/triggers/triggers.config';
export { TriggersModule } from 'src/modules/triggers/triggers.module';
