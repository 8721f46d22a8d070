import {
  AgentMessageEventDataSchema,
  BlockedActionsResponseSchema,
  CreateConversationResponseSchema,
  ConversationSchema,
  DataSourceViewResponseSchema,
  FileUploadRequestResponseSchema,
  FileUploadedRequestResponseSchema,
  GenerationTokensEventSchema,
  GetAgentConfigurationsResponseSchema,
  GetConversationResponseSchema,
  GetConversationsResponseSchema,
  GetFeedbacksResponseSchema,
  GetMCPServerViewsResponseSchema,
  GetOrPatchAgentConfigurationResponseSchema,
  GetSpacesResponseSchema,
  PatchConversationResponseSchema,
  PostContentFragmentResponseSchema,
  PostMessageFeedbackResponseSchema,
  PostUserMessageResponseSchema,
  ValidateActionResponseSchema,
} from '@dust-tt/client';
import { z } from 'zod';

/**
 * What Dust's own client (`@dust-tt/client`) accepts, per OpenAPI schema name of ours: the e2e
 * matcher validates a body with both, so a shape the client would reject fails a test.
 */

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  unionErrors?: { issues: ZodIssueLike[] }[];
}

interface ZodLike {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ZodIssueLike[] } };
}

/** One value to validate with one of the client's schemas. */
interface DustCheck {
  label: string;
  schema: ZodLike;
  value: unknown;
  /** Paths (dotted, `*` for an array index) where the specification wins over the client. */
  specificationWins?: string[];
}

// The client exports no schema of a single message: they are the elements of a conversation's content.
const [userMessages, agentMessages, contentFragments] = ConversationSchema.shape.content.element.options;
const UserMessageSchema = userMessages.element;
const AgentMessageSchema = agentMessages.element;
const ContentFragmentSchema = contentFragments.element;
const DataSourceViewSchema = DataSourceViewResponseSchema.shape.dataSourceView;
const ActionSchema = AgentMessageSchema.shape.actions.element;
const LightAgentConfigurationSchema = GetOrPatchAgentConfigurationResponseSchema.shape.agentConfiguration;

/**
 * 1.2.8's `CoreAPIDocumentSchema`, which it does not export (nor the search, list and get answers
 * that hold it): written out field for field from the client's `types.ts`, to check those answers.
 */
const CoreAPIDocumentSchema = z.object({
  data_source_id: z.string(),
  created: z.number(),
  document_id: z.string(),
  timestamp: z.number(),
  parent_id: z.string().nullable().optional(),
  tags: z.array(z.string()),
  source_url: z.string().nullable().optional(),
  hash: z.string(),
  text_size: z.number(),
  chunk_count: z.number(),
  chunks: z.array(
    z.object({
      text: z.string(),
      hash: z.string(),
      offset: z.number(),
      vector: z.array(z.number()).nullable().optional(),
      score: z.number().nullable().optional(),
    }),
  ),
  text: z.string().nullable().optional(),
});
const DataSourceSearchResponseSchema = z.object({ documents: z.array(CoreAPIDocumentSchema) });
const GetDocumentsResponseSchema = z.object({ documents: z.array(CoreAPIDocumentSchema), total: z.number() });
const GetDocumentResponseSchema = z.object({ document: CoreAPIDocumentSchema });

/**
 * Endpoint 11 answers the conversation "without its content" (specification), where the client
 * requires `content`: the specification wins on the `/api/w/` family.
 */
const CONVERSATION_WITHOUT_CONTENT = ['conversation.content'];

/** The specification types the public form's `versionAuthorId` a string; the client, a number. */
const PUBLIC_FORM_AUTHOR = ['agentConfiguration.versionAuthorId'];

const MESSAGE_SCHEMAS: Record<string, ZodLike> = {
  user_message: UserMessageSchema,
  agent_message: AgentMessageSchema,
  content_fragment: ContentFragmentSchema,
};

/** An event's action, as the client reads those of an agent message. */
function actionCheck(label: string, body: Body): DustCheck[] {
  return [{ label: `${label}.action`, schema: ActionSchema, value: body.action }];
}

function messageCheck(label: string, message: unknown): DustCheck[] {
  const type = (message as { type?: string } | null)?.type ?? '';
  const schema = MESSAGE_SCHEMAS[type];
  return schema ? [{ label: `${label} (${type})`, schema, value: message }] : [];
}

type Body = Record<string, unknown>;

const CHECKS: Record<string, (body: Body) => DustCheck[]> = {
  ConversationResponse: (body) => [
    {
      label: 'GetConversationResponseSchema',
      schema: GetConversationResponseSchema,
      value: body,
      specificationWins: CONVERSATION_WITHOUT_CONTENT,
    },
  ],
  CreatedConversationResponse: (body) => [
    {
      label: 'CreateConversationResponseSchema',
      schema: CreateConversationResponseSchema,
      value: body,
      specificationWins: CONVERSATION_WITHOUT_CONTENT,
    },
  ],
  // The public family's conversation carries its content: the client's schema applies whole.
  PublicConversationResponse: (body) => [
    { label: 'GetConversationResponseSchema', schema: GetConversationResponseSchema, value: body },
  ],
  PublicCreatedConversationResponse: (body) => [
    { label: 'CreateConversationResponseSchema', schema: CreateConversationResponseSchema, value: body },
  ],
  SpacesResponse: (body) => [
    { label: 'GetSpacesResponseSchema', schema: GetSpacesResponseSchema, value: body },
  ],
  ConversationsResponse: (body) => [
    { label: 'GetConversationsResponseSchema', schema: GetConversationsResponseSchema, value: body },
  ],
  UserMessageResponse: (body) => [
    { label: 'PostUserMessageResponseSchema', schema: PostUserMessageResponseSchema, value: body },
  ],
  UserMessage: (body) => messageCheck('message', body),
  MessageResponse: (body) => messageCheck('message', body.message),
  AgentMessageResponse: (body) => messageCheck('message', body.message),
  MessagesResponse: (body) =>
    ((body.messages as unknown[] | undefined) ?? []).flatMap((message, index) =>
      messageCheck(`messages[${index}]`, message),
    ),
  UserMessageNewEvent: (body) => messageCheck('user_message_new.message', body.message),
  AgentMessageNewEvent: (body) => messageCheck('agent_message_new.message', body.message),
  AgentMessageSuccessEvent: (body) => [
    { label: 'AgentMessageEventDataSchema', schema: AgentMessageEventDataSchema, value: body },
  ],
  AgentErrorEvent: (body) => [
    { label: 'AgentMessageEventDataSchema', schema: AgentMessageEventDataSchema, value: body },
  ],
  PublicUpdatedConversationResponse: (body) => [
    { label: 'PatchConversationResponseSchema', schema: PatchConversationResponseSchema, value: body },
    { label: 'GetConversationResponseSchema', schema: GetConversationResponseSchema, value: body },
  ],
  BlockedActionsResponse: (body) => [
    { label: 'BlockedActionsResponseSchema', schema: BlockedActionsResponseSchema, value: body },
  ],
  ServerViewsResponse: (body) => [
    { label: 'GetMCPServerViewsResponseSchema', schema: GetMCPServerViewsResponseSchema, value: body },
  ],
  ToolParamsEvent: (body) => actionCheck('tool_params', body),
  ToolApproveExecutionEvent: (body) => actionCheck('tool_approve_execution', body),
  AgentActionSuccessEvent: (body) => actionCheck('agent_action_success', body),
  ToolErrorEvent: (body) => actionCheck('tool_error', body),
  GenerationTokensEvent: (body) => [
    { label: 'GenerationTokensEventSchema', schema: GenerationTokensEventSchema, value: body },
  ],
  ContentFragmentResponse: (body) => [
    { label: 'PostContentFragmentResponseSchema', schema: PostContentFragmentResponseSchema, value: body },
  ],
  AgentConfigurationsResponse: (body) => [
    {
      label: 'GetAgentConfigurationsResponseSchema',
      schema: GetAgentConfigurationsResponseSchema,
      value: body,
    },
  ],
  AgentConfigurationResponse: (body) => [
    {
      label: 'GetOrPatchAgentConfigurationResponseSchema',
      schema: GetOrPatchAgentConfigurationResponseSchema,
      value: body,
    },
  ],
  UpdatedAgentConfigurationResponse: (body) => [
    {
      label: 'GetOrPatchAgentConfigurationResponseSchema',
      schema: GetOrPatchAgentConfigurationResponseSchema,
      value: body,
      specificationWins: PUBLIC_FORM_AUTHOR,
    },
  ],
  // Dust's history route is not in this client: each version is checked as its light form.
  AgentHistoryResponse: (body) =>
    ((body.history as unknown[] | undefined) ?? []).map((version, index) => ({
      label: `history[${index}]`,
      schema: LightAgentConfigurationSchema,
      value: version,
    })),
  FeedbacksResponse: (body) => [
    { label: 'GetFeedbacksResponseSchema', schema: GetFeedbacksResponseSchema, value: body },
  ],
  FeedbackSuccessResponse: (body) => [
    { label: 'PostMessageFeedbackResponseSchema', schema: PostMessageFeedbackResponseSchema, value: body },
  ],
  ValidateActionResponse: (body) => [
    { label: 'ValidateActionResponseSchema', schema: ValidateActionResponseSchema, value: body },
  ],
  DataSourceViewResponse: (body) => [
    { label: 'DataSourceViewResponseSchema', schema: DataSourceViewResponseSchema, value: body },
  ],
  // The client's list schema is not exported: each view is checked with its element schema.
  DataSourceViewsResponse: (body) =>
    ((body.dataSourceViews as unknown[] | undefined) ?? []).map((view, index) => ({
      label: `dataSourceViews[${index}]`,
      schema: DataSourceViewSchema,
      value: view,
    })),
  SearchResponse: (body) => [
    { label: 'DataSourceSearchResponseSchema', schema: DataSourceSearchResponseSchema, value: body },
  ],
  DocumentsResponse: (body) => [
    { label: 'GetDocumentsResponseSchema', schema: GetDocumentsResponseSchema, value: body },
  ],
  DocumentResponse: (body) => [
    { label: 'GetDocumentResponseSchema', schema: GetDocumentResponseSchema, value: body },
  ],
  // A file just created carries its upload URL, which the client then requires.
  FileResponse: (body) => {
    const created = (body.file as { status?: string } | undefined)?.status === 'created';
    return [
      created
        ? { label: 'FileUploadRequestResponseSchema', schema: FileUploadRequestResponseSchema, value: body }
        : {
            label: 'FileUploadedRequestResponseSchema',
            schema: FileUploadedRequestResponseSchema,
            value: body,
          },
    ];
  },
};

function pathPattern(path: PropertyKey[]): string {
  return path.map((part) => (typeof part === 'number' ? '*' : String(part))).join('.');
}

/** Every leaf issue, union alternatives included, with its full path. */
function leafIssues(issues: ZodIssueLike[]): ZodIssueLike[] {
  return issues.flatMap((issue) =>
    issue.code === 'invalid_union' && issue.unionErrors
      ? [issue, ...issue.unionErrors.flatMap((union) => leafIssues(union.issues))]
      : [issue],
  );
}

/** The client's complaints about a body, as readable lines; empty when it accepts it. */
export function dustSchemaProblems(name: string, body: unknown): string[] {
  const checks = CHECKS[name]?.((body ?? {}) as Body) ?? [];
  return checks.flatMap(({ label, schema, value, specificationWins = [] }) => {
    const result = schema.safeParse(value);
    if (result.success) return [];
    const issues = result.error.issues.filter(
      (issue) => !specificationWins.includes(pathPattern(issue.path)),
    );
    if (issues.length === 0) return [];
    return [
      `  ${label}:`,
      ...leafIssues(issues).map(
        (issue) => `    ${issue.path.map(String).join('.') || '(root)'}: ${issue.message} [${issue.code}]`,
      ),
    ];
  });
}
