import { Body, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpaceParams } from 'src/platform/http/route-params';
import { WorkspaceController } from 'src/platform/http/api-families';
import { DataSourcesService } from 'src/modules/data-sources/application/data-sources.service';
import { DocumentSearchService } from 'src/modules/data-sources/application/document-search.service';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import {
  DataSourceViewParams,
  PatchDataSourceViewDto,
} from 'src/modules/data-sources/http/dto/data-sources.dto';
import { SearchQuery } from 'src/modules/data-sources/http/dto/documents.dto';
import {
  DataSourceViewResponse,
  DataSourceViewsResponse,
  renderDataSourceView,
} from 'src/modules/data-sources/application/views/data-source.view';
import { SearchResponse, renderSearchResult } from 'src/modules/data-sources/application/views/document.view';

/** Endpoint 12 of the specification, in the public (`/api/v1`) path family. */
@ApiTags('data sources')
@WorkspaceController('spaces/:spaceId/data_source_views', { families: ['public'] })
export class DataSourceViewsController {
  constructor(
    private readonly dataSources: DataSourcesService,
    private readonly search: DocumentSearchService,
  ) {}

  @Get()
  @Auth({ scopes: ['read:data_source'] })
  @ApiOperation({
    summary: 'List the data source views of a space (endpoint 12).',
    description:
      'Any member who can access the space, with `read:data_source`; a space the caller cannot access ' +
      'is 404 `space_not_found`.',
  })
  @ApiOkResponse({
    type: DataSourceViewsResponse,
    description: 'The data source views of a space the caller can access, oldest first.',
  })
  @ApiErrors(404)
  async list(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceParams,
  ): Promise<DataSourceViewsResponse> {
    const views = await this.dataSources.listViews(caller, params.spaceId);
    return { dataSourceViews: views.map(renderDataSourceView) };
  }

  @Patch(':dsvId')
  @Auth({ scopes: ['write:data_source'], roles: ['admin'] })
  @ApiOperation({
    summary: "Change what a data source view exposes (Dust's `patchDataSourceView`).",
    description:
      'Admins, with `write:data_source`, as on `/api/w/`. Either `parentsIn` replaces the parents (null: the whole ' +
      'data source), or `parentsToAdd` and `parentsToRemove` change them as Dust does: the removed go, the added ' +
      'come, once each; a view of the whole data source then exposes only the added ones. Giving both forms, or ' +
      `neither, is 400. A view of another space, or a space of another workspace, is 404.`,
  })
  @ApiBody({
    type: PatchDataSourceViewDto,
    examples: {
      change: {
        summary: 'Add and remove parents',
        value: { parentsToAdd: ['faq'], parentsToRemove: ['drafts'] },
      },
      replace: { summary: 'Replace the parents', value: { parentsIn: ['handbook', 'policies'] } },
    },
  })
  @ApiOkResponse({ type: DataSourceViewResponse })
  @ApiErrors(400, 404)
  async patchView(
    @CurrentCaller() caller: Caller,
    @Param() params: DataSourceViewParams,
    @Body() body: PatchDataSourceViewDto,
  ): Promise<DataSourceViewResponse> {
    const replaces = body.parentsIn !== undefined;
    const changes = body.parentsToAdd !== undefined || body.parentsToRemove !== undefined;
    if (replaces === changes) {
      throw new InvalidRequestError(
        'parentsIn, parentsToAdd, parentsToRemove: give parentsIn, or parentsToAdd and/or parentsToRemove.',
      );
    }
    const parents = replaces
      ? body.parentsIn!
      : { add: body.parentsToAdd ?? [], remove: body.parentsToRemove ?? [] };
    const view = await this.dataSources.updateView(caller, params.spaceId, params.dsvId, parents);
    return { dataSourceView: renderDataSourceView(view) };
  }

  @Get(':dsvId/search')
  @Auth({ scopes: ['read:data_source'] })
  @ApiOperation({
    summary: 'Search the documents of a view',
    description:
      'Full-text search of the documents the view exposes (its `parentsIn`), in the text-search ' +
      'configuration of its data source: the best `top_k` chunks (1 to 64, default 10) grouped by document, ' +
      "best first, each document with Dust's fields (`hash`, `text_size`, `chunk_count`, `timestamp`, `parents`, " +
      '…) and each chunk with the SHA-256 of its text. With `full_text=true` each document comes with its whole ' +
      'text (`text`, else null), 400 when the documents found hold more than 16 MiB of text. Any member who can ' +
      'access the space, with `read:data_source`.',
  })
  @ApiOkResponse({ type: SearchResponse })
  @ApiErrors(400, 404)
  async searchView(
    @CurrentCaller() caller: Caller,
    @Param() params: DataSourceViewParams,
    @Query() query: SearchQuery,
  ): Promise<SearchResponse> {
    const found = await this.search.searchView(caller, params.spaceId, params.dsvId, {
      query: query.query,
      topK: query.top_k ?? 10,
      fullText: query.full_text === 'true',
    });
    return { documents: renderSearchResult(found) };
  }
}
