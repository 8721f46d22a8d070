import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { AgentQueriesService } from 'src/modules/agents/application/agent-queries.service';
import { ConversationParticipants } from 'src/modules/agents/application/ports/conversation-participants.port';
import type { RichMentionView } from 'src/modules/agents/application/views/mention.view';
import { defaultPictureUrl } from 'src/modules/agents/domain/agent-configuration';
import { Mentionable, mentionRank, serializeMentions } from 'src/modules/agents/domain/mentions';

/** Suggestions of each kind (agents, members) one answer holds: what a picker shows at most. */
export const MENTION_SUGGESTIONS_PER_KIND = 10;

export interface MentionSuggestionQuery {
  query: string;
  agents: boolean;
  users: boolean;
  /** Whether the caller may be suggested. */
  includeCaller: boolean;
}

type Candidate = Mentionable & { view: RichMentionView };

/**
 * Who a message may mention, as the caller sees them: the agents of its agent list that it can
 * read and that are live (active), and the workspace's members.
 */
@Injectable()
export class MentionsService {
  constructor(
    private readonly agentQueries: AgentQueriesService,
    private readonly workspaces: WorkspacesService,
    private readonly participants: ConversationParticipants,
  ) {}

  async suggestions(caller: Caller, options: MentionSuggestionQuery): Promise<RichMentionView[]> {
    return this.ranked(caller, options, new Set());
  }

  /** The same, while writing in a conversation the caller can read: its participants first. */
  async suggestionsIn(
    caller: Caller,
    conversationSId: string,
    options: MentionSuggestionQuery,
  ): Promise<RichMentionView[]> {
    return this.ranked(caller, options, await this.participants.idsOf(caller, conversationSId));
  }

  private async ranked(
    caller: Caller,
    options: MentionSuggestionQuery,
    preferred: ReadonlySet<string>,
  ): Promise<RichMentionView[]> {
    const [agents, users] = await Promise.all([
      options.agents ? this.agentCandidates(caller) : [],
      options.users ? this.userCandidates(caller, options.includeCaller) : [],
    ]);
    return [...best(agents, options.query, preferred), ...best(users, options.query, preferred)].map(
      (candidate) => candidate.view,
    );
  }

  /**
   * `markdown` with each `@name` of such an agent in Dust's mention format. Members are left as
   * typed, as Dust does: pasted text should not notify people.
   */
  async parse(caller: Caller, markdown: string): Promise<string> {
    return serializeMentions(markdown, await this.agentCandidates(caller));
  }

  private async agentCandidates(caller: Caller): Promise<Candidate[]> {
    const agents = await this.agentQueries.list(caller, {
      view: 'list',
      withAuthors: false,
      withEditors: false,
    });
    return agents
      .filter((details) => details.canRead && details.agent.status === 'active')
      .map(({ agent, userFavorite }) => ({
        id: agent.sId,
        type: 'agent',
        label: agent.name,
        aliases: [],
        view: {
          id: agent.sId,
          type: 'agent',
          label: agent.name,
          pictureUrl: agent.pictureUrl,
          description: agent.description,
          userFavorite,
        },
      }));
  }

  private async userCandidates(caller: Caller, includeCaller: boolean): Promise<Candidate[]> {
    const members = await this.workspaces.listMembers(caller);
    return members
      .filter(({ user }) => includeCaller || user.id !== caller.userId)
      .map(({ user }) => ({
        id: user.sId,
        type: 'user',
        label: user.fullName,
        aliases: [user.username],
        view: {
          id: user.sId,
          type: 'user',
          label: user.fullName,
          pictureUrl: user.image ?? defaultPictureUrl(user.username),
          description: user.username,
        },
      }));
  }
}

const LABEL_ORDER = new Intl.Collator('en', { sensitivity: 'base' });

/** The candidates the query matches, preferred ones first, then best matches, at most a picker's worth. */
function best(candidates: Candidate[], query: string, preferred: ReadonlySet<string>): Candidate[] {
  return candidates
    .flatMap((candidate) => {
      const rank = mentionRank(query, candidate);
      return rank === null ? [] : [{ candidate, rank, preferred: preferred.has(candidate.id) ? 0 : 1 }];
    })
    .sort(
      (a, b) =>
        a.preferred - b.preferred ||
        a.rank - b.rank ||
        LABEL_ORDER.compare(a.candidate.label, b.candidate.label) ||
        a.candidate.id.localeCompare(b.candidate.id),
    )
    .slice(0, MENTION_SUGGESTIONS_PER_KIND)
    .map(({ candidate }) => candidate);
}
