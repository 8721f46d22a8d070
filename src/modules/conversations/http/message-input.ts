import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { type FragmentInput, checkFragmentInput } from 'src/modules/conversations/domain/content-fragment';
import { type Mention } from 'src/modules/conversations/domain/message';
import { isIanaTimeZone } from 'src/platform/text/time-zones';
import type { MessageInput } from 'src/modules/conversations/application/message-writer.service';
import type { ContentFragmentDto } from 'src/modules/conversations/http/dto/content-fragment.dto';
import type { NewConversationInput } from 'src/modules/conversations/application/conversations.service';
import type { CreateConversationDto } from 'src/modules/conversations/http/dto/conversation.dto';
import type { MentionDto, PostMessageDto } from 'src/modules/conversations/http/dto/message.dto';

/**
 * The specification's family answers a creation or a post at once: waiting for the answers
 * (`blocking`, Dust's) is the public family's.
 */
export function refuseBlocking(blocking: boolean | undefined): void {
  if (blocking) {
    throw new InvalidRequestError(
      "blocking: waiting for the agents' answers is served on /api/v1/w/{wId}/…; here the answer comes at once (stream the agent message's events).",
    );
  }
}

/** Each fragment of a `contentFragments` array checked: a file or inline text, within the limits. */
export function toFragmentInputs(fragments: ContentFragmentDto[] | undefined): FragmentInput[] {
  return (fragments ?? []).map((fragment, index) =>
    checkFragmentInput(fragment, `contentFragments.${index}.`),
  );
}

/** A mention names an agent (`configurationId`) or a member (`type: 'user'` with `userId`), not both. */
export function toMentions(mentions: MentionDto[]): Mention[] {
  return mentions.map((mention, index) => {
    if (mention.configurationId && !mention.type && !mention.userId) {
      return { configurationId: mention.configurationId };
    }
    if (!mention.configurationId && mention.type === 'user' && mention.userId) {
      return { type: 'user', userId: mention.userId };
    }
    throw new InvalidRequestError(
      `mentions.${index}: give either configurationId (an agent) or type "user" with userId (a member).`,
    );
  });
}

/**
 * `field` is where the message sits in the request body, for errors (`message` on a creation);
 * `skipToolsValidation` is the request's (a post's, or a creation's top level).
 */
export function toMessageInput(body: PostMessageDto, field = '', skipToolsValidation = false): MessageInput {
  if (!isIanaTimeZone(body.context.timezone)) {
    throw new InvalidRequestError(
      `${field}context.timezone: "${body.context.timezone}" is not an IANA timezone (e.g. "Europe/Paris").`,
    );
  }
  return {
    content: body.content,
    mentions: toMentions(body.mentions),
    context: {
      username: body.context.username,
      timezone: body.context.timezone,
      origin: body.context.origin,
      fullName: body.context.fullName ?? null,
      email: body.context.email ?? null,
      profilePictureUrl: body.context.profilePictureUrl ?? null,
      clientSideMCPServerIds: body.context.clientSideMCPServerIds
        ? [...new Set(body.context.clientSideMCPServerIds)]
        : null,
      selectedMCPServerViewIds: body.context.selectedMCPServerViewIds ?? null,
      lastTriggerRunAt: body.context.lastTriggerRunAt ?? null,
      agenticMessageData: body.agenticMessageData ?? null,
      skipToolsValidation,
    },
    modelSelection: body.modelSelection,
  };
}

/** A creation's body as it is, but its message and fragments: a new optional field reaches the service without a line here. */
export function toNewConversation(body: CreateConversationDto): NewConversationInput {
  // `visibility` can only be `unlisted`, and `skipToolsValidation` belongs to the first message.
  const { contentFragment, visibility: _unlisted, skipToolsValidation, ...rest } = body;
  return {
    ...rest,
    title: body.title ?? undefined,
    message: body.message && toMessageInput(body.message, 'message.', skipToolsValidation),
    blocking: body.blocking || body.message?.blocking || false,
    // Dust's singular `contentFragment` comes before the list's.
    contentFragments: [
      ...(contentFragment ? [checkFragmentInput(contentFragment, 'contentFragment.')] : []),
      ...toFragmentInputs(body.contentFragments),
    ],
  };
}
