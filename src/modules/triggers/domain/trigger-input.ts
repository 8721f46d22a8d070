import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { checkName } from 'src/platform/text/names';
import {
  CronScheduleConfig,
  FlatConfiguration,
  NAME_MAX,
  ScheduleConfig,
  Trigger,
  TriggerKind,
  WebhookConfig,
} from 'src/modules/triggers/domain/trigger';
import { FilterSyntaxError, parsePayloadFilter } from 'src/modules/triggers/domain/payload-filter';
import { firstFiring } from 'src/modules/triggers/domain/trigger-schedule';

/** A trigger as a request gives it: its configuration flattened, its webhook source view by sId. */
export interface TriggerInput extends Pick<Trigger, 'name'>, Partial<Pick<Trigger, 'status'>> {
  kind: TriggerKind;
  customPrompt: string;
  configuration: FlatConfiguration;
  webhookSourceViewSId?: string | null;
  executionPerDayLimitOverride?: number | null;
}

/** A schedule an agent asks for itself through its `triggers` tools: a cron in a time zone. */
export type AgentScheduleInput = Pick<TriggerInput, 'name' | 'customPrompt'> &
  Pick<CronScheduleConfig, 'cron' | 'timezone'>;

/**
 * A trigger's name, trimmed, under the rule for names people read: it becomes the title of each
 * conversation the trigger opens, where a bidirectional or invisible character is refused too.
 */
export function triggerName(name: string, field: string): string {
  return checkName(field, name, NAME_MAX);
}

const CRON_KEYS = ['type', 'cron', 'timezone'];
const INTERVAL_KEYS = ['type', 'intervalDays', 'dayOfWeek', 'hour', 'minute', 'timezone'];
const WEBHOOK_KEYS = ['includePayload', 'event', 'filter'];

function refuseOtherKeys(input: FlatConfiguration, allowed: string[], field: string, what: string): void {
  const extra = Object.entries(input)
    .filter(([key, value]) => value !== undefined && !allowed.includes(key))
    .map(([key]) => key);
  if (extra.length > 0) {
    throw new InvalidRequestError(
      `${field}: ${extra.join(', ')} ${extra.length === 1 ? 'is' : 'are'} not a field of ${what}; it takes ${allowed.join(', ')}.`,
    );
  }
}

function required<T>(value: T | undefined, field: string, hint: string): T {
  if (value === undefined) throw new InvalidRequestError(`${field}: required (${hint}).`);
  return value;
}

/**
 * A schedule's configuration, checked (fields of its type only, cron or interval rules, time zone,
 * spacing), with its first firing after `now`. `field` names the configuration in messages.
 */
export function scheduleFrom(
  input: FlatConfiguration,
  now: Date,
  field: string,
): { configuration: ScheduleConfig; nextFireAt: Date } {
  const timezone = () =>
    required(input.timezone, `${field}.timezone`, 'an IANA time zone, e.g. "Europe/Paris"');
  let configuration: ScheduleConfig;
  if (input.type === 'interval') {
    refuseOtherKeys(input, INTERVAL_KEYS, field, 'an interval schedule');
    configuration = {
      type: 'interval',
      intervalDays: required(input.intervalDays, `${field}.intervalDays`, 'days between firings, e.g. 7'),
      dayOfWeek: input.dayOfWeek ?? null,
      hour: required(input.hour, `${field}.hour`, '0 to 23'),
      minute: required(input.minute, `${field}.minute`, '0 to 59'),
      timezone: timezone(),
    };
  } else {
    refuseOtherKeys(input, CRON_KEYS, field, 'a cron schedule');
    configuration = {
      type: 'cron',
      cron: required(input.cron, `${field}.cron`, '5 fields, e.g. "0 9 * * 1-5"').trim(),
      timezone: timezone(),
    };
  }
  return { configuration, nextFireAt: firstFiring(configuration, now, field) };
}

/** A webhook's configuration, checked: its fields only, and a filter that parses. */
export function webhookFrom(input: FlatConfiguration, field: string): WebhookConfig {
  refuseOtherKeys(input, WEBHOOK_KEYS, field, 'a webhook trigger');
  const configuration: WebhookConfig = {
    includePayload: required(input.includePayload, `${field}.includePayload`, 'true or false'),
  };
  if (input.event !== undefined) configuration.event = input.event;
  if (input.filter !== undefined) {
    try {
      parsePayloadFilter(input.filter);
    } catch (error) {
      if (!(error instanceof FilterSyntaxError)) throw error;
      throw new InvalidRequestError(
        `${field}.filter: ${error.message} (a condition such as $.action == "opened" && $.pull_request.draft == false).`,
      );
    }
    configuration.filter = input.filter;
  }
  return configuration;
}
