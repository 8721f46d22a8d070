import type * as views from 'src/modules/triggers/application/views/trigger.view';
import { TriggerConfigurationView } from 'src/modules/triggers/application/views/trigger.view';
import type { TriggerKind, TriggerOrigin, TriggerStatus } from 'src/modules/triggers/domain/trigger';

export class Trigger implements views.TriggerView {
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
  triggers!: Trigger[];
}

export class TriggerConversation implements views.TriggerConversationView {
  /** sId of the conversation */
  sId!: string;
  title!: string | null;
  created!: number;
  triggerId!: string;
  /** The due time (schedules) or the delivery time (webhooks) it was opened for, ms since the epoch */
  firedFor!: number;
}

export class TriggerConversationsResponse {
  conversations!: TriggerConversation[];
}
