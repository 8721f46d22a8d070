import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { SpacesService, WorkspacesService } from 'src/modules/identity/identity.api';
import {
  AgentStatistics,
  AgentUsage,
  FeedbackCounts,
} from 'src/modules/agents/application/ports/agent-statistics.read-model';
import {
  AgentRelations,
  AgentRepository,
  RelatedAgent,
  RelationsReader,
} from 'src/modules/agents/application/ports/agent.repository';
import { CatalogueRepository } from 'src/modules/agents/application/ports/catalogue.repository';
import {
  AgentVersion,
  defaultPictureUrl,
  isEditableBy,
  isReadableBy,
  requestedSpaceIds,
} from 'src/modules/agents/domain/agent-configuration';
import type { Tag } from 'src/modules/agents/domain/catalogue';

/** The window of the usage and feedback counts: 30 days. */
export const USAGE_PERIOD_SEC = 30 * 24 * 3600;

const LAST_AUTHORS = 3;
const NO_RELATIONS: AgentRelations = { favorite: false, editorIds: [], recentAuthorIds: null };

export interface EditorSummary {
  sId: string;
  fullName: string;
  image: string;
}

/** An agent version with everything its two wire forms need, for one caller. */
export interface AgentDetails {
  agent: AgentVersion;
  tags: Tag[];
  versionAuthorSId: string | null;
  userFavorite: boolean;
  canRead: boolean;
  canEdit: boolean;
  requestedSpaceIds: string[];
  editors?: EditorSummary[];
  lastAuthors?: string[];
  usage?: AgentUsage & { timePeriodSec: number };
  feedbacks?: FeedbackCounts;
}

/** What to add to the details beyond the agent and the caller's rights. */
export interface DetailsOptions {
  withAuthors: boolean;
  withEditors: boolean;
  withUsage?: boolean;
  withFeedbacks?: boolean;
}

/** Loads the details of a page of agents in a fixed number of queries. */
@Injectable()
export class AgentDetailsLoader {
  constructor(
    private readonly agents: AgentRepository,
    private readonly catalogue: CatalogueRepository,
    private readonly workspaces: WorkspacesService,
    private readonly spaces: SpacesService,
    private readonly statistics: AgentStatistics,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** What `listLatest` reads with the agents for this caller and these options. */
  static readerFor(caller: Caller, options: DetailsOptions): RelationsReader {
    return { userId: caller.userId, recentAuthors: options.withAuthors ? LAST_AUTHORS : null };
  }

  /** The details of these versions (just written, say): their relations are the agent's, read again. */
  async load(caller: Caller, agents: AgentVersion[], options: DetailsOptions): Promise<AgentDetails[]> {
    if (agents.length === 0) return [];
    const latest = await this.agents.listLatest(
      caller.workspaceId,
      { sIds: agents.map((agent) => agent.sId) },
      AgentDetailsLoader.readerFor(caller, options),
    );
    const relations = new Map(latest.map((related) => [related.agent.sId, related.relations]));
    return this.complete(
      caller,
      agents.map((agent) => ({ agent, relations: relations.get(agent.sId) ?? NO_RELATIONS })),
      options,
    );
  }

  /** The details of agents read with their relations, in one more round of queries. */
  async complete(caller: Caller, related: RelatedAgent[], options: DetailsOptions): Promise<AgentDetails[]> {
    if (related.length === 0) return [];
    const agents = related.map(({ agent }) => agent);
    const sIds = agents.map((agent) => agent.sId);
    const since = new Date(this.clock.now().getTime() - USAGE_PERIOD_SEC * 1000);
    const userIds = related.flatMap(({ agent, relations }) => [
      ...(agent.versionAuthorId === null ? [] : [agent.versionAuthorId]),
      ...(options.withEditors ? relations.editorIds : []),
      ...(relations.recentAuthorIds ?? []),
    ]);
    // Agents are described inside transactions too (a message's mentions), where reads go one by one.
    const [tags, accessible, members, usage, feedbacks] = await this.unitOfWork.all([
      () =>
        this.catalogue.findTagsByIds(caller.workspaceId, [
          ...new Set(agents.flatMap((agent) => agent.tagIds)),
        ]),
      // Only an agent with tools shared through spaces needs the caller's spaces to be readable.
      async () =>
        agents.some((agent) => agent.actions.some((action) => action.spaceId !== null))
          ? new Set((await this.spaces.listAccessible(caller)).map((space) => space.sId))
          : new Set<string>(),
      async () =>
        new Map(
          (await this.workspaces.membersByUserIds(caller.workspaceId, userIds)).map((member) => [
            member.user.id,
            member.user,
          ]),
        ),
      async () => (options.withUsage ? this.statistics.usage(caller, sIds, since) : null),
      async () => (options.withFeedbacks ? this.statistics.feedbackCounts(caller, sIds, since) : null),
    ]);
    return related.map(({ agent, relations }) => {
      const isEditor = relations.editorIds.includes(caller.userId);
      const details: AgentDetails = {
        agent,
        tags: tags.filter((tag) => agent.tagIds.includes(tag.id)),
        versionAuthorSId:
          agent.versionAuthorId === null ? null : (members.get(agent.versionAuthorId)?.sId ?? null),
        userFavorite: relations.favorite,
        canRead: isReadableBy(agent, { isAdmin: caller.isAdmin, isEditor, accessibleSpaceIds: accessible }),
        canEdit: isEditableBy(agent, { isAdmin: caller.isAdmin, isEditor }),
        requestedSpaceIds: requestedSpaceIds(agent.actions),
      };
      if (options.withEditors) {
        details.editors = relations.editorIds.flatMap((userId) => {
          const user = members.get(userId);
          return user
            ? [{ sId: user.sId, fullName: user.fullName, image: user.image ?? defaultPictureUrl(user.sId) }]
            : [];
        });
      }
      if (usage) {
        const counts = usage.get(agent.sId) ?? { messageCount: 0, conversationCount: 0, userCount: 0 };
        details.usage = { ...counts, timePeriodSec: USAGE_PERIOD_SEC };
      }
      if (feedbacks) details.feedbacks = feedbacks.get(agent.sId) ?? { up: 0, down: 0 };
      if (relations.recentAuthorIds) {
        details.lastAuthors = relations.recentAuthorIds.flatMap((userId) => {
          const user = members.get(userId);
          return user ? [user.fullName] : [];
        });
      }
      return details;
    });
  }
}
