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
export interface TriggerView {
  id: number;
  sId: string;
  name: string;
  agentConfigurationId: string;
  editor: string;
  editorEmail: string | null;
  isEditor: boolean;
  customPrompt: string | null;
  status: TriggerStatus;
  origin: TriggerOrigin;
  createdAt: number;
  kind: TriggerKind;
  configuration: TriggerConfigurationView;
  webhookSourceViewSId: string | null;
  executionPerDayLimitOverride: number | null;
  nextFireAt: number | null;
}

/** A conversation a trigger opened. */
export interface TriggerConversationView {
  sId: string;
  title: string | null;
  created: number;
  triggerId: string;
  /** The due time (schedules) or the delivery (webhooks) it was opened for, ms since the epoch */
  firedFor: number;
}

/** One firing of a trigger and what came of it. */
export interface TriggerFiringView {
  id: number;
  /** The due time (schedules) or the delivery (webhooks) it fired for, ms since the epoch */
  firedFor: number;
  status: 'succeeded' | 'failed';
  /** Why it failed, in a sentence; null when it succeeded. */
  error: string | null;
  /** The conversation it opened, when the caller can read it. */
  conversationId: string | null;
  created: number;
}

/** A page of firings, newest first; `nextCursor` asks for the next (older) page. */
export interface TriggerFiringsPage {
  firings: TriggerFiringView[];
  nextCursor: string | null;
}

/** A trigger as the API shows it to the member `readerId`. */
export function presentTrigger(
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
