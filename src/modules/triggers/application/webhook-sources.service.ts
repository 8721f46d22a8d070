import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConflictError, DomainError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId, randomBase62 } from 'src/platform/ids/sid';
import { checkName } from 'src/platform/text/names';
import { WebhookDeliveriesService } from 'src/modules/triggers/application/webhook-deliveries.service';
import { Space, SpacesService } from 'src/modules/identity/identity.api';
import {
  WebhookRepository,
  WebhookSourceChanges,
} from 'src/modules/triggers/application/ports/webhook.repository';
import {
  WebhookSourceViewView,
  WebhookSourceWithViewsView,
  renderWebhookSourceForAdmin,
  renderWebhookSourceView,
} from 'src/modules/triggers/application/views/webhook-source.view';
import {
  DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
  GENERIC_SIGNATURE_HEADER,
  GITHUB_HEADERS,
  SOURCE_NAME_MAX,
  WebhookHeaders,
  WebhookSource,
  WebhookSourceView,
  secretProblem,
} from 'src/modules/triggers/domain/webhook-source';

export type WebhookSourceInput = Pick<WebhookSource, 'name'> &
  Partial<WebhookHeaders & Pick<WebhookSource, 'provider' | 'signatureAlgorithm'>> & {
    /** Given by the admin (e.g. the one GitHub was set up with), else generated. */
    secret?: string | null;
    /** Also share it to the global space, as Dust's `includeGlobal`. */
    includeGlobal?: boolean;
  };

export type WebhookSourcePatch = Partial<
  Omit<WebhookSourceInput, 'provider' | 'secret' | 'signatureAlgorithm' | 'includeGlobal'>
>;

class WebhookSourceViewNotFound extends DomainError {
  constructor(sId: string) {
    super('webhook_source_view_not_found', `Webhook source view ${sId} not found in this space.`);
  }
}

function sourceNotFound(sId: string): DomainError {
  return new DomainError('webhook_source_not_found', `Webhook source ${sId} not found in this workspace.`);
}

/**
 * Webhook sources (admins) and their views in spaces, as MCP servers are shared: a trigger
 * listens to a source through a view of a space its editor can read.
 */
@Injectable()
export class WebhookSourcesService {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly spaces: SpacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  async create(
    caller: Caller,
    workspaceSId: string,
    input: WebhookSourceInput,
  ): Promise<WebhookSourceWithViewsView> {
    const name = checkName('name', input.name, SOURCE_NAME_MAX);
    const weakSecret = input.secret == null ? null : secretProblem(input.secret);
    if (weakSecret !== null) throw new InvalidRequestError(`secret: ${weakSecret}.`);
    const preset = input.provider === 'github' ? GITHUB_HEADERS : null;
    const secret = input.secret ?? `whsec_${randomBase62(40)}`;
    const global = input.includeGlobal
      ? (await this.spaces.listAll(caller)).find((space) => space.kind === 'global')
      : undefined;
    const { source, views } = await this.unitOfWork.run(async () => {
      await this.refuseTakenName(caller.workspaceId, name, null);
      const source = await this.webhooks.createSource({
        sId: generatePrefixedSId('whs'),
        workspaceId: caller.workspaceId,
        name,
        provider: input.provider ?? null,
        signatureAlgorithm: 'sha256',
        secret,
        signatureHeader: input.signatureHeader ?? preset?.signatureHeader ?? GENERIC_SIGNATURE_HEADER,
        timestampHeader: input.timestampHeader ?? preset?.timestampHeader ?? null,
        timestampToleranceSeconds: input.timestampToleranceSeconds ?? DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
        eventHeader: input.eventHeader === undefined ? (preset?.eventHeader ?? null) : input.eventHeader,
        deliveryHeader:
          input.deliveryHeader === undefined ? (preset?.deliveryHeader ?? null) : input.deliveryHeader,
      });
      const views = global ? [await this.shareTo(source, global)] : [];
      return { source, views };
    });
    return {
      ...renderWebhookSourceForAdmin(source, workspaceSId, { showSecret: true }),
      views: views.map((view) => renderWebhookSourceView(view, global!.sId, source)),
    };
  }

  async list(caller: Caller, workspaceSId: string): Promise<WebhookSourceWithViewsView[]> {
    const [sources, views, spaces] = await Promise.all([
      this.webhooks.listSources(caller.workspaceId),
      this.webhooks.listViews(caller.workspaceId, {}),
      this.spaces.listAll(caller),
    ]);
    const spaceSIds = new Map(spaces.map((space) => [space.id, space.sId]));
    return sources.map((source) => ({
      ...renderWebhookSourceForAdmin(source, workspaceSId, { showSecret: false }),
      views: views
        .filter((view) => view.webhookSourceId === source.id)
        .map((view) => renderWebhookSourceView(view, spaceSIds.get(view.spaceId) ?? '', source)),
    }));
  }

  async get(caller: Caller, workspaceSId: string, sId: string): Promise<WebhookSourceWithViewsView> {
    const found = (await this.list(caller, workspaceSId)).find((source) => source.sId === sId);
    if (!found) throw sourceNotFound(sId);
    return found;
  }

  async update(
    caller: Caller,
    workspaceSId: string,
    sId: string,
    patch: WebhookSourcePatch,
  ): Promise<WebhookSourceWithViewsView> {
    const source = await this.findSource(caller, sId);
    const changes: WebhookSourceChanges = {};
    if (patch.name !== undefined) changes.name = checkName('name', patch.name, SOURCE_NAME_MAX);
    if (patch.signatureHeader !== undefined) changes.signatureHeader = patch.signatureHeader;
    if (patch.timestampHeader !== undefined) changes.timestampHeader = patch.timestampHeader;
    if (patch.timestampToleranceSeconds !== undefined)
      changes.timestampToleranceSeconds = patch.timestampToleranceSeconds;
    if (patch.eventHeader !== undefined) changes.eventHeader = patch.eventHeader;
    if (patch.deliveryHeader !== undefined) changes.deliveryHeader = patch.deliveryHeader;
    await this.unitOfWork.run(async () => {
      if (changes.name !== undefined) await this.refuseTakenName(caller.workspaceId, changes.name, source.id);
      await this.webhooks.updateSource(source, changes);
    });
    this.deliveries.forget(sId);
    return this.get(caller, workspaceSId, sId);
  }

  /** A source whose views have triggers stays: its triggers would listen to nothing. */
  async remove(caller: Caller, sId: string): Promise<void> {
    const source = await this.findSource(caller, sId);
    const views = await this.webhooks.listViews(caller.workspaceId, { webhookSourceId: source.id });
    await this.refuseWithTriggers(caller.workspaceId, views, `Webhook source ${sId}`);
    await this.webhooks.deleteSource(caller.workspaceId, source.id);
    this.deliveries.forget(sId);
  }

  async viewsOfSource(caller: Caller, sId: string): Promise<WebhookSourceViewView[]> {
    const source = await this.findSource(caller, sId);
    const [views, spaces] = await Promise.all([
      this.webhooks.listViews(caller.workspaceId, { webhookSourceId: source.id }),
      this.spaces.listAll(caller),
    ]);
    const spaceSIds = new Map(spaces.map((space) => [space.id, space.sId]));
    return views.map((view) => renderWebhookSourceView(view, spaceSIds.get(view.spaceId) ?? '', source));
  }

  /** The views of a space the caller can access (404 for any other space). */
  async listSpaceViews(caller: Caller, spaceSId: string): Promise<WebhookSourceViewView[]> {
    const space = await this.spaces.findAccessible(caller, spaceSId);
    const [views, sources] = await Promise.all([
      this.webhooks.listViews(caller.workspaceId, { spaceId: space.id }),
      this.webhooks.listSources(caller.workspaceId),
    ]);
    const byId = new Map(sources.map((source) => [source.id, source]));
    return views.map((view) => renderWebhookSourceView(view, space.sId, byId.get(view.webhookSourceId)!));
  }

  async share(caller: Caller, spaceSId: string, sourceSId: string): Promise<WebhookSourceViewView> {
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    const source = await this.webhooks.findSource(caller.workspaceId, sourceSId);
    if (!source)
      throw new InvalidRequestError(`webhookSourceId: no webhook source ${sourceSId} in this workspace.`);
    return renderWebhookSourceView(await this.shareTo(source, space), space.sId, source);
  }

  async unshare(caller: Caller, spaceSId: string, viewSId: string): Promise<void> {
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    const view = await this.webhooks.findView(caller.workspaceId, viewSId);
    if (!view || view.spaceId !== space.id) throw new WebhookSourceViewNotFound(viewSId);
    await this.refuseWithTriggers(caller.workspaceId, [view], `Webhook source view ${viewSId}`);
    await this.webhooks.deleteView(caller.workspaceId, view.id);
  }

  /**
   * The view a trigger of `caller` may listen through: one of their workspace, in a space they can
   * read. Anything else is a 400 naming `field`, the same for a view that exists elsewhere.
   */
  async readableView(
    caller: Caller,
    viewSId: string | null | undefined,
    field: string,
  ): Promise<WebhookSourceView> {
    if (!viewSId)
      throw new InvalidRequestError(
        `${field}: required for a webhook trigger (a webhook source view's sId).`,
      );
    const view = await this.webhooks.findView(caller.workspaceId, viewSId);
    const readable =
      view && (await this.spaces.listAccessible(caller)).some((space) => space.id === view.spaceId);
    if (!view || !readable) {
      throw new InvalidRequestError(`${field}: no webhook source view ${viewSId} in a space you can read.`);
    }
    return view;
  }

  /** sIds of views by their row ids, for presenting triggers. */
  async viewSIds(workspaceId: number, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const views = await this.webhooks.listViews(workspaceId, { ids: [...new Set(ids)] });
    return new Map(views.map((view) => [view.id, view.sId]));
  }

  private async shareTo(source: WebhookSource, space: Space): Promise<WebhookSourceView> {
    const view = await this.webhooks.createView({
      sId: generatePrefixedSId('whv'),
      workspaceId: source.workspaceId,
      webhookSourceId: source.id,
      spaceId: space.id,
    });
    if (!view)
      throw new ConflictError(`Webhook source ${source.sId} is already shared to space ${space.sId}.`);
    return view;
  }

  private async findSource(caller: Caller, sId: string): Promise<WebhookSource> {
    const source = await this.webhooks.findSource(caller.workspaceId, sId);
    if (!source) throw sourceNotFound(sId);
    return source;
  }

  private async refuseTakenName(workspaceId: number, name: string, exceptId: number | null): Promise<void> {
    if (await this.webhooks.sourceNameTaken(workspaceId, name, exceptId)) {
      throw new ConflictError(`A webhook source named "${name}" already exists in this workspace.`);
    }
  }

  private async refuseWithTriggers(
    workspaceId: number,
    views: WebhookSourceView[],
    what: string,
  ): Promise<void> {
    const count = await this.webhooks.countTriggersOnViews(
      workspaceId,
      views.map((view) => view.id),
    );
    if (count > 0) {
      throw new ConflictError(
        `${what} has ${count} trigger${count === 1 ? '' : 's'} listening to it: delete ${count === 1 ? 'it' : 'them'} first.`,
      );
    }
  }
}
