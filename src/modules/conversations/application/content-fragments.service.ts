import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import type { ConversationEvent } from 'src/modules/conversations/application/views/conversation-event.view';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { generateSId } from 'src/platform/ids/sid';
import { ContentFragmentRepository } from 'src/modules/conversations/application/ports/content-fragment.repository';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { FragmentFiles } from 'src/modules/conversations/application/ports/fragment-files';
import {
  FragmentDocument,
  FragmentDocuments,
} from 'src/modules/conversations/application/ports/fragment-documents';
import type { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import { MessageNotFound } from 'src/modules/conversations/domain/conversations.errors';
import {
  ContentFragment,
  ContentFragmentText,
  FRAGMENTS_PER_REQUEST_MAX,
  FragmentInput,
} from 'src/modules/conversations/domain/content-fragment';
import type { Conversation } from 'src/modules/conversations/domain/conversation';

/** The path of a fragment's text (GET, a reader of the conversation). */
export function fragmentTextPath(workspaceSId: string, conversationSId: string, fragmentSId: string): string {
  return `/api/w/${workspaceSId}/assistant/conversations/${conversationSId}/content_fragments/${fragmentSId}/text`;
}

/**
 * What the model reads of a document a fragment shows: its text, under its own title when the
 * fragment was given another one. Kept as it is when attached, as a file's text is.
 */
function documentText(fragmentTitle: string, document: FragmentDocument): string {
  return document.title === fragmentTitle ? document.text : `${document.title}\n\n${document.text}`;
}

export function renderContentFragment(
  fragment: ContentFragment,
  workspaceSId: string,
  conversationSId: string,
): ContentFragmentView {
  return {
    type: 'content_fragment',
    sId: fragment.sId,
    id: fragment.id,
    rank: fragment.rank,
    version: fragment.version,
    created: fragment.createdAt.getTime(),
    title: fragment.title,
    contentType: fragment.contentType,
    fileId: fragment.fileSId,
    textBytes: fragment.textBytes,
    visibility: 'visible',
    contentFragmentId: fragment.sId,
    contentFragmentVersion: 'latest',
    textUrl: fragmentTextPath(workspaceSId, conversationSId, fragment.sId),
    sourceUrl: fragment.sourceUrl,
    context: fragment.author ?? { username: null, fullName: null, email: null, profilePictureUrl: null },
    expiredReason: null,
    snippet: null,
    generatedTables: [],
    sourceProvider: null,
    sourceIcon: null,
    ...(fragment.node
      ? {
          contentFragmentType: 'content_node' as const,
          nodeId: fragment.node.nodeId,
          nodeDataSourceViewId: fragment.node.nodeDataSourceViewId,
          nodeType: 'document' as const,
          contentNodeData: {
            nodeId: fragment.node.nodeId,
            nodeDataSourceViewId: fragment.node.nodeDataSourceViewId,
            nodeType: 'document' as const,
            provider: null,
            spaceName: fragment.node.spaceName,
          },
        }
      : { contentFragmentType: 'file' as const, contentNodeData: null }),
  };
}

/**
 * Content fragments: files and inline text put in a conversation, each a slot of its own. They
 * are announced on the conversation stream as `user_message_new` events whose message is the
 * fragment (`type: "content_fragment"`), so the stream keeps the specification's seven types.
 */
@Injectable()
export class ContentFragmentsService {
  constructor(
    private readonly conversationRepository: ConversationRepository,
    private readonly fragments: ContentFragmentRepository,
    private readonly files: FragmentFiles,
    private readonly documents: FragmentDocuments,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Adds fragments to a conversation the caller may write to (checked by the caller of this). */
  add(caller: Caller, conversation: Conversation, inputs: FragmentInput[]): Promise<ContentFragmentView[]> {
    return this.unitOfWork.run(() => this.write(caller, conversation, inputs));
  }

  /**
   * Writes fragments at the next ranks of `conversation`, binding their files to it, with their
   * events; in the caller's transaction, so a refused file leaves nothing written.
   */
  async write(
    caller: Caller,
    conversation: Conversation,
    inputs: FragmentInput[],
  ): Promise<ContentFragmentView[]> {
    if (inputs.length === 0) return [];
    if (inputs.length > FRAGMENTS_PER_REQUEST_MAX) {
      throw new InvalidRequestError(`contentFragments: at most ${FRAGMENTS_PER_REQUEST_MAX} at once.`);
    }
    const resolved = [];
    for (const input of inputs) {
      if ('fileId' in input) {
        const file = await this.files.attach(caller, input.fileId, conversation.sId);
        resolved.push({
          title: input.title,
          sourceUrl: input.sourceUrl ?? null,
          author: input.author ?? null,
          contentType: file.contentType,
          fileSId: file.sId,
          node: null,
          text: file.text ?? '',
        });
      } else if ('nodeId' in input) {
        const document = await this.documents.read(caller, input.nodeDataSourceViewId, input.nodeId);
        resolved.push({
          title: input.title,
          sourceUrl: document.sourceUrl,
          author: input.author ?? null,
          contentType: document.mimeType,
          fileSId: null,
          node: {
            nodeId: document.documentId,
            nodeDataSourceViewId: document.viewSId,
            spaceName: document.spaceName,
          },
          text: documentText(input.title, document),
        });
      } else {
        resolved.push({
          title: input.title,
          sourceUrl: input.sourceUrl ?? null,
          author: input.author ?? null,
          contentType: input.contentType,
          fileSId: null,
          node: null,
          text: input.content,
        });
      }
    }
    const first = await this.conversationRepository.allocateRanks(
      caller.workspaceId,
      conversation.id,
      resolved.length,
    );
    const written = await this.fragments.insert(
      resolved.map((fragment, index) => ({
        ...fragment,
        sId: generateSId(),
        workspaceId: caller.workspaceId,
        conversationId: conversation.id,
        rank: first + index,
        version: 0,
      })),
    );
    const views = written.map((fragment) =>
      renderContentFragment(fragment, caller.workspaceSId, conversation.sId),
    );
    for (const view of views) {
      await this.events.append(caller.workspaceId, conversation.id, {
        type: 'user_message_new',
        created: view.created,
        messageId: view.sId,
        message: view,
      });
    }
    return views;
  }

  /** Whether `sId` names a fragment of the conversation (a message route was given one). */
  isFragment(caller: Caller, conversation: Conversation, sId: string): Promise<boolean> {
    return this.fragments.exists(caller.workspaceId, conversation.id, sId);
  }

  /** A fragment of a conversation the caller may read (checked by the caller of this), with its text. */
  async text(caller: Caller, conversation: Conversation, fragmentSId: string): Promise<ContentFragmentText> {
    const found = await this.fragments.findText(caller.workspaceId, conversation.id, fragmentSId);
    if (!found) throw new MessageNotFound(fragmentSId);
    return found;
  }

  /** Fragments after `afterRank`, in rank order, at most `limit`. */
  listAfter(
    caller: Caller,
    conversation: Conversation,
    afterRank: number,
    limit: number,
  ): Promise<ContentFragment[]> {
    return this.fragments.listAfter(caller.workspaceId, conversation.id, afterRank, limit);
  }
}
