import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Observable, mergeMap } from 'rxjs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthenticatedRequest } from 'src/platform/auth/auth.decorators';
import type { Caller } from 'src/platform/auth/caller';
import { PAGE_MAX } from 'src/modules/conversations/application/conversations.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { AgentMessage } from 'src/modules/conversations/http/schemas/agent-message.schema';
import { ContentFragment } from 'src/modules/conversations/http/schemas/content-fragment.schema';
import {
  ConversationView,
  CreatedConversationResponse,
} from 'src/modules/conversations/http/schemas/conversation.schema';
import { UserMessage } from 'src/modules/conversations/http/schemas/user-message.schema';

/** How long a public-family creation waits for the agent messages answering its message. */
const ANSWERS_WAIT_MS = 10_000;
const ANSWERS_POLL_MS = 25;

type Slot = UserMessage | AgentMessage | ContentFragment;

/** The conversation of the public family: Dust's `ConversationType`, which carries its content. */
@ApiExtraModels(UserMessage, AgentMessage, ContentFragment)
export class PublicConversationView extends ConversationView {
  @ApiProperty({
    type: 'array',
    description:
      "Dust's `content`: every slot of the conversation in rank order, each as the list of its versions (here its latest version).",
    items: {
      type: 'array',
      items: {
        oneOf: [
          { $ref: getSchemaPath(UserMessage) },
          { $ref: getSchemaPath(AgentMessage) },
          { $ref: getSchemaPath(ContentFragment) },
        ],
        discriminator: { propertyName: 'type' },
      },
    },
  })
  content!: Slot[][];
}

export class PublicConversationResponse {
  @ApiProperty({ type: PublicConversationView }) conversation!: PublicConversationView;
}

export class PublicCreatedConversationResponse extends CreatedConversationResponse {
  @ApiProperty({ type: PublicConversationView }) declare conversation: PublicConversationView;
}

/** The schemas the public family answers with instead of their `/api/w/` twins' (OpenAPI names). */
export const PUBLIC_CONVERSATION_SCHEMAS = {
  models: [PublicConversationResponse, PublicCreatedConversationResponse],
  responses: {
    ConversationResponse: 'PublicConversationResponse',
    CreatedConversationResponse: 'PublicCreatedConversationResponse',
  },
};

interface ConversationBody {
  conversation: { sId: string; content?: Slot[][] };
  message?: { sId: string; mentions?: { configurationId?: string }[] };
}

/** The routes that post a message: a creation with its first message, and a post. */
const POSTING_ROUTES = /\/assistant\/conversations(\/:cId\/messages)?$/;

type PostingRequest = AuthenticatedRequest & { route?: { path?: string } };

const isConversationBody = (body: unknown): body is ConversationBody =>
  typeof (body as ConversationBody | null)?.conversation?.sId === 'string';

/**
 * On the public family, a conversation answered by the routes it decorates carries `content`, as
 * Dust's client requires. A creation or a post waits (a bounded time) for the agent messages
 * answering its message to exist, as Dust answers only once they do: the client then streams the
 * answer of the agent message it finds in `content` (or in the conversation it reads next).
 */
@Injectable()
export class PublicConversationContent implements NestInterceptor {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly views: MessageViews,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<PostingRequest>();
    const caller = request.caller;
    if (!caller || !request.url.startsWith('/api/v1/')) return next.handle();
    // Only a creation or a post starts agents: other answers holding a message never wait.
    const posting = request.method === 'POST' && POSTING_ROUTES.test(request.route?.path ?? '');
    return next
      .handle()
      .pipe(
        mergeMap((body: unknown) =>
          this.withContent(caller, body, posting ? request.params.cId : null, posting),
        ),
      );
  }

  private async withContent(
    caller: Caller,
    body: unknown,
    cId: string | null | undefined,
    posting: boolean,
  ): Promise<unknown> {
    const conversationSId = isConversationBody(body) ? body.conversation.sId : cId;
    if (!conversationSId || (isConversationBody(body) && body.conversation.content)) return body;
    const posted = posting ? (body as Partial<ConversationBody>).message : undefined;
    const answers = new Set(posted?.mentions?.flatMap((m) => m.configurationId ?? []) ?? []).size;
    const deadline = Date.now() + ANSWERS_WAIT_MS;
    let slots = await this.slots(caller, conversationSId);
    while (posted && answers > 0 && Date.now() < deadline) {
      const found = slots.filter(
        (slot) => slot.type === 'agent_message' && slot.parentMessageId === posted.sId,
      );
      if (found.length >= answers) break;
      await sleep(ANSWERS_POLL_MS);
      slots = await this.slots(caller, conversationSId);
    }
    if (!isConversationBody(body)) return body;
    return { ...body, conversation: { ...body.conversation, content: slots.map((slot) => [slot]) } };
  }

  /** The latest version of every slot, all pages. */
  private async slots(caller: Caller, sId: string): Promise<Slot[]> {
    const { conversation } = await this.conversations.getForReader(caller, sId);
    const slots: Slot[] = [];
    let afterRank = -1;
    for (;;) {
      const { page, reactions } = await this.messages.listMessages(caller, conversation, {
        limit: PAGE_MAX,
        afterRank,
      });
      slots.push(...((await this.views.slotViews(caller, sId, page.items, reactions)) as Slot[]));
      if (page.next === null) return slots;
      afterRank = page.next;
    }
  }
}
