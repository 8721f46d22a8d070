export type TriggerStatus = 'enabled' | 'disabled';
/** Who made the trigger: a member through the API, or an agent through its `triggers` tools. */
export type TriggerOrigin = 'user' | 'agent';

export interface CronScheduleConfig {
  type: 'cron';
  cron: string;
  timezone: string;
}

/** Every `intervalDays` days (on `dayOfWeek` when set, 0 being Sunday) at `hour:minute` local time. */
export interface IntervalScheduleConfig {
  type: 'interval';
  intervalDays: number;
  dayOfWeek: number | null;
  hour: number;
  minute: number;
  timezone: string;
}

export type ScheduleConfig = CronScheduleConfig | IntervalScheduleConfig;

export interface WebhookConfig {
  includePayload: boolean;
  /** Matched against the sender's event header (GitHub's `X-GitHub-Event`). */
  event?: string;
  /** A condition on the payload (see `payload-filter.ts`). */
  filter?: string;
}

/**
 * A configuration of either kind, flattened as the API carries it both ways: the fields of every
 * kind, each optional; `type` tells the schedules apart.
 */
export type FlatConfiguration = Partial<
  Omit<CronScheduleConfig, 'type'> &
    Omit<IntervalScheduleConfig, 'type'> &
    WebhookConfig &
    Pick<ScheduleConfig, 'type'>
>;

export type TriggerSpec =
  | { kind: 'schedule'; configuration: ScheduleConfig }
  | {
      kind: 'webhook';
      configuration: WebhookConfig;
      webhookSourceViewId: number;
      executionPerDayLimitOverride: number | null;
    };

export type TriggerKind = TriggerSpec['kind'];

export interface Trigger {
  id: number;
  sId: string;
  workspaceId: number;
  agentSId: string;
  name: string;
  editorId: number;
  customPrompt: string | null;
  status: TriggerStatus;
  origin: TriggerOrigin;
  /** The conversation whose agent created it through its `triggers` tools; null otherwise. */
  sourceConversationId: number | null;
  spec: TriggerSpec;
  /** When an enabled schedule fires next; null for webhooks and disabled triggers. */
  nextFireAt: Date | null;
  createdAt: Date;
}

export const NAME_MAX = 255;
export const PROMPT_MAX = 10_000;
/** Dust's default number of firings a day of one webhook trigger. */
export const DEFAULT_EXECUTIONS_PER_DAY = 42;
export const EXECUTIONS_PER_DAY_MAX = 10_000;
