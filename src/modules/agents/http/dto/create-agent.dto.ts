import { HttpUrl, Decimal, EmailAddress, Integer, OneOf, SidRef, Text } from 'src/platform/http/input-fields';
import { NestedObject, OptionalNestedList } from 'src/platform/http/nested-input';
import {
  AGENT_DESCRIPTION_MAX,
  AGENT_INSTRUCTIONS_MAX,
  AGENT_NAME_PATTERN,
  EDITABLE_SCOPES,
  MAX_STEPS_PER_RUN_LIMIT,
  MODEL_ID_MAX,
} from 'src/modules/agents/domain/agent-configuration';
import { MODEL_PROVIDERS, ModelProviderId, REASONING_EFFORTS, ReasoningEffort } from 'src/kernel/agent-model';
import { TAG_KINDS, TAG_NAME_MAX, TagKind } from 'src/modules/agents/domain/catalogue';

export const NAME_MESSAGE =
  'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';

class ModelDto {
  @OneOf(MODEL_PROVIDERS)
  providerId!: ModelProviderId;

  /** @example local-1 */
  @Text({ min: 1, max: MODEL_ID_MAX })
  modelId!: string;

  @Decimal({ min: 0, max: 1 })
  temperature!: number;

  @OneOf(REASONING_EFFORTS, { presence: 'optional' })
  reasoningEffort?: ReasoningEffort;
}

export class TagReferenceDto {
  @Text({ min: 1, max: TAG_NAME_MAX, human: true })
  name!: string;

  @OneOf(TAG_KINDS, { presence: 'optional' })
  kind?: TagKind;
}

class CreateEditorDto {
  /** sId of a workspace member */
  @SidRef({ presence: 'optional' })
  userId?: string;

  @EmailAddress({ presence: 'optional' })
  email?: string;
}

class SkillReferenceDto {
  @SidRef()
  sId!: string;
}

class CreateActionDto {
  @Text({ min: 1, max: 64, human: true })
  name!: string;

  @Text({ max: AGENT_DESCRIPTION_MAX, presence: 'optional' })
  description?: string;

  /** Name of an internal tool server or display name of a remote one. */
  @Text({ min: 1, max: 100 })
  mcpServerName!: string;
}

export class NewAgentDto {
  /** @example support-bot */
  @Text({ pattern: AGENT_NAME_PATTERN, message: `name ${NAME_MESSAGE}` })
  name!: string;

  @Text({ max: AGENT_DESCRIPTION_MAX })
  description!: string;

  @Text({ max: AGENT_INSTRUCTIONS_MAX })
  instructions!: string;

  @HttpUrl({ max: 2048, presence: 'optional' })
  pictureUrl?: string;

  @OneOf(['active', 'draft'], { presence: 'optional' })
  status?: 'active' | 'draft';

  @OneOf(EDITABLE_SCOPES)
  scope!: 'visible' | 'hidden';

  @NestedObject(() => ModelDto)
  model!: ModelDto;

  @OptionalNestedList(() => CreateActionDto, 32)
  actions?: CreateActionDto[];

  @Integer({ min: 1, max: MAX_STEPS_PER_RUN_LIMIT, presence: 'optional' })
  maxStepsPerRun?: number;

  @Text({ max: 64, presence: 'optional' })
  templateId?: string | null;

  @OptionalNestedList(() => TagReferenceDto, 32)
  tags?: TagReferenceDto[];

  @OptionalNestedList(() => CreateEditorDto, 100)
  editors?: CreateEditorDto[];

  @OptionalNestedList(() => SkillReferenceDto, 32)
  skills?: SkillReferenceDto[];
}

export class CreateAgentDto {
  @NestedObject(() => NewAgentDto)
  assistant!: NewAgentDto;
}
