import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ForbiddenError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import { checkName } from 'src/platform/text/names';
import { SpacesService, WorkspacesService } from 'src/modules/identity/identity.api';
import { CatalogueService } from 'src/modules/agents/application/catalogue.service';
import { InternalServersService } from 'src/modules/agents/application/internal-servers.service';
import { CatalogueRepository } from 'src/modules/agents/application/ports/catalogue.repository';
import type { ResolvedAction } from 'src/modules/agents/domain/agent-configuration';
import { TAG_NAME_MAX, type Tag, type TagKind } from 'src/modules/agents/domain/catalogue';
import { SkippedAction, ToolsetEntry, resolveToolset } from 'src/modules/agents/domain/toolset-resolution';

export interface TagReference {
  name: string;
  kind?: TagKind;
}

export interface EditorReference {
  userId?: string;
  email?: string;
}

/** Resolves what an agent command names (tools, tags, skills, editors) to what a version stores. */
@Injectable()
export class AgentReferencesService {
  constructor(
    private readonly catalogue: CatalogueRepository,
    private readonly catalogueService: CatalogueService,
    private readonly workspaces: WorkspacesService,
    private readonly spaces: SpacesService,
    private readonly internalServers: InternalServersService,
  ) {}

  /** The toolset rules: what resolves becomes an action, the rest is skipped with its reason. */
  async resolveToolset(
    caller: Caller,
    entries: ToolsetEntry[],
  ): Promise<{ actions: ResolvedAction[]; skipped: SkippedAction[] }> {
    return resolveToolset(
      entries,
      await this.catalogueService.remoteServersWithViews(caller),
      await this.accessibleSpaceIds(caller),
      (server) => this.internalServers.reasonFor(server),
    );
  }

  /** On creation every tool must resolve: there is no `skippedActions` in the answer to report to. */
  async resolveActionsStrictly(caller: Caller, entries: ToolsetEntry[]): Promise<ResolvedAction[]> {
    if (entries.length === 0) return [];
    const { actions, skipped } = await this.resolveToolset(caller, entries);
    if (skipped.length > 0) {
      throw new InvalidRequestError(
        `assistant.actions: ${skipped.map((skip) => `${skip.name}: ${skip.reason}`).join(' ')}`,
      );
    }
    return actions;
  }

  /** Existing tags by name, whatever their case; the missing ones are created. */
  async resolveTags(caller: Caller, references: TagReference[]): Promise<Tag[]> {
    const named = references.map((tag) => ({ ...tag, name: checkName('tags.name', tag.name, TAG_NAME_MAX) }));
    const unique = [...new Map(named.map((tag) => [tag.name.toLowerCase(), tag])).values()];
    if (unique.length === 0) return [];
    const existing = await this.catalogue.findTagsByNames(
      caller.workspaceId,
      unique.map((tag) => tag.name),
    );
    const known = new Set(existing.map((tag) => tag.name.toLowerCase()));
    const missing = unique.filter((tag) => !known.has(tag.name.toLowerCase()));
    const protectedTags = [
      ...existing.filter((tag) => tag.kind === 'protected').map((tag) => tag.name),
      ...missing.filter((tag) => tag.kind === 'protected').map((tag) => tag.name),
    ];
    if (protectedTags.length > 0 && !caller.isAdmin) {
      throw new ForbiddenError(`Only admins can use protected tags: ${protectedTags.join(', ')}.`);
    }
    return this.catalogue.ensureTags(caller.workspaceId, [
      ...existing.map((tag) => ({ sId: tag.sId, name: tag.name, kind: tag.kind })),
      ...missing.map((tag) => ({
        sId: generatePrefixedSId('tag'),
        name: tag.name,
        kind: tag.kind ?? 'standard',
      })),
    ]);
  }

  /** Skill row ids from sIds; an unknown one is an error naming `field`. */
  async resolveSkills(caller: Caller, references: { sId: string }[], field: string): Promise<number[]> {
    const sIds = [...new Set(references.map((skill) => skill.sId))];
    const skills = await this.catalogue.findSkillsBySIds(caller.workspaceId, sIds);
    const unknown = sIds.filter((sId) => !skills.some((skill) => skill.sId === sId));
    if (unknown.length > 0)
      throw new InvalidRequestError(`${field}: unknown skill(s) ${unknown.join(', ')}.`);
    return skills.map((skill) => skill.id);
  }

  /** Editors by user sId or email; unknown ones are an error; the caller always stays an editor. */
  async resolveEditors(caller: Caller, references: EditorReference[], field: string): Promise<number[]> {
    const { members, unknown } = await this.workspaces.resolveMembers(caller, {
      userSIds: references.flatMap((ref) => (ref.userId ? [ref.userId] : [])),
      emails: references.flatMap((ref) => (!ref.userId && ref.email ? [ref.email] : [])),
    });
    if (unknown.length > 0) {
      throw new InvalidRequestError(`${field}: not members of this workspace: ${unknown.join(', ')}.`);
    }
    return [...new Set([caller.userId, ...members.map((member) => member.user.id)])].sort((a, b) => a - b);
  }

  async accessibleSpaceIds(caller: Caller): Promise<Set<string>> {
    return new Set((await this.spaces.listAccessible(caller)).map((space) => space.sId));
  }
}
