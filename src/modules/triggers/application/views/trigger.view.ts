import { ApiSchema } from '@nestjs/swagger';
import type {
  FlatConfiguration,
  Trigger,
  TriggerKind,
  TriggerOrigin,
  TriggerStatus,
} from 'src/modules/triggers/domain/trigger';

/**
 * A schedule's (`cron` or `interval`) or a webhook's configuration, flattened: each kind sets its
 * own fields. The request's configuration (`TriggerConfigurationDto`) validates the same fields.
 */
@ApiSchema({ name: 'TriggerConfiguration' })
export class TriggerConfigurationView implements FlatConfiguration {
  /** Schedules: `cron` or `interval` */
  type?: 'cron' | 'interval';
  cron?: string;
  timezone?: string;
  intervalDays?: number;
  dayOfWeek?: number | null;
  hour?: number;
  minute?: number;
  includePayload?: boolean;
  event?: string;
  filter?: string;
}

/** A trigger as the API shows it (Dust's shape, with the reader's relation to it). */
@ApiSchema({ name: 'Trigger' })
export class TriggerView {
  id!: number;
  sId!: string;
  name!: string;
  /** sId of the agent */
  agentConfigurationId!: string;
  /** sId of the member whose conversations the trigger opens */
  editor!: string;
  editorEmail!: string | null;
  /** Whether the caller is the trigger's editor */
  isEditor!: boolean;
  customPrompt!: string | null;
  status!: TriggerStatus;
  /** `agent` when the agent scheduled itself through its `triggers` tools */
  origin!: TriggerOrigin;
  createdAt!: number;
  kind!: TriggerKind;
  configuration!: TriggerConfigurationView;
  webhookSourceViewSId!: string | null;
  executionPerDayLimitOverride!: number | null;
  /** Enabled schedules: when it fires next, ms since the epoch */
  nextFireAt!: number | null;
}

export class TriggersResponse {
  triggers!: TriggerView[];
}

/** A conversation a trigger opened. */
@ApiSchema({ name: 'TriggerConversation' })
export class TriggerConversationView {
  /** sId of the conversation */
  sId!: string;
  title!: string | null;
  created!: number;
  triggerId!: string;
  /** The due time (schedules) or the delivery time (webhooks) it was opened for, ms since the epoch */
  firedFor!: number;
}

export class TriggerConversationsResponse {
  conversations!: TriggerConversationView[];
}

/** One firing of a trigger and what came of it. */
@ApiSchema({ name: 'TriggerFiring' })
export class TriggerFiringView {
  id!: number;
  /** The due time (schedules) or the delivery time (webhooks) it fired for, ms since the epoch */
  firedFor!: number;
  status!: 'succeeded' | 'failed';
  /**
   * Why it failed; null when it succeeded
   * @example "The trigger's editor can no longer read agent Ag4tB7nM1q."
   */
  error!: string | null;
  /** sId of the conversation it opened, when the key reads conversations and the caller can read it */
  conversationId!: string | null;
  /** When it was recorded, ms since the epoch */
  created!: number;
}

/** A page of firings. */
@ApiSchema({ name: 'TriggerFiringsResponse' })
export class TriggerFiringsPage {
  /** Newest first */
  firings!: TriggerFiringView[];
  /** Give it as `cursor` for the next (older) page; null on the last page */
  nextCursor!: string | null;
}

/** A trigger as the API shows it to the member `readerId`. */
export function renderTrigger(
  trigger: Trigger,
  editor: { sId: string; email: string } | undefined,
  readerId: number,
): TriggerView {
  const { spec } = trigger;
  return {
    id: trigger.id,
    sId: trigger.sId,
    name: trigger.name,
    agentConfigurationId: trigger.agentSId,
    editor: editor?.sId ?? '',
    editorEmail: editor?.email ?? null,
    isEditor: trigger.editorId === readerId,
    customPrompt: trigger.customPrompt,
    status: trigger.status,
    origin: trigger.origin,
    createdAt: trigger.createdAt.getTime(),
    kind: spec.kind,
    configuration: { ...spec.configuration },
    webhookSourceViewSId: null,
    executionPerDayLimitOverride: spec.kind === 'webhook' ? spec.executionPerDayLimitOverride : null,
    nextFireAt: trigger.nextFireAt?.getTime() ?? null,
  };
}
