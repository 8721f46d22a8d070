import { Body, Controller, Delete, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { ApiErrors } from 'src/platform/http/api-errors';
import { SpaceParams } from 'src/platform/http/route-params';
import { DataSourcesService } from 'src/modules/data-sources/application/data-sources.service';
import {
  CreateDataSourceDto,
  CreateDataSourceViewDto,
  DataSourceViewParams,
  UpdateDataSourceViewDto,
} from 'src/modules/data-sources/http/dto/data-sources.dto';
import {
  CreatedDataSourceResponse,
  DataSourceViewResponse,
  renderDataSource,
  renderDataSourceView,
} from 'src/modules/data-sources/application/views/data-source.view';

/** Administration of data sources and of their views in the spaces of a workspace. */
@ApiTags('data sources')
@Controller('api/w/:wId/spaces/:spaceId')
export class DataSourcesController {
  constructor(private readonly dataSources: DataSourcesService) {}

  @Post('data_sources')
  @HttpCode(200)
  @Auth({ scopes: ['write:data_source'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Create a data source in a space, with its default view.',
    description:
      'Admins, with `write:data_source`. The space owns the data source: its documents are written ' +
      'and read under that space. `textSearchConfig` (a PostgreSQL text-search configuration, ' +
      '`simple` by default) is fixed at creation. A name already used in the workspace is 409.',
  })
  @ApiOkResponse({
    type: CreatedDataSourceResponse,
    description: 'The data source and its default view in this space. Names are unique per workspace.',
  })
  @ApiErrors(400, 404, 409)
  async create(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceParams,
    @Body() body: CreateDataSourceDto,
  ): Promise<CreatedDataSourceResponse> {
    const { dataSource, view } = await this.dataSources.create(caller, params.spaceId, body);
    return { dataSource: renderDataSource(dataSource), dataSourceView: renderDataSourceView(view) };
  }

  @Post('data_source_views')
  @HttpCode(200)
  @Auth({ scopes: ['write:data_source'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Share a data source into this space with a view.',
    description:
      'Admins, with `write:data_source`. The view exposes the whole data source or only the documents ' +
      'under `parentsIn`; a space holds at most one view of a data source (409).',
  })
  @ApiOkResponse({
    type: DataSourceViewResponse,
    description: 'A custom view sharing a data source of the workspace into this space (one per space).',
  })
  @ApiErrors(400, 404, 409)
  async addView(
    @CurrentCaller() caller: Caller,
    @Param() params: SpaceParams,
    @Body() body: CreateDataSourceViewDto,
  ): Promise<DataSourceViewResponse> {
    return {
      dataSourceView: renderDataSourceView(await this.dataSources.addView(caller, params.spaceId, body)),
    };
  }

  @Patch('data_source_views/:dsvId')
  @Auth({ scopes: ['write:data_source'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Change what a data source view exposes.',
    description:
      "Admins, with `write:data_source`. Replaces the view's `parentsIn` (null: the whole data source).",
  })
  @ApiOkResponse({ type: DataSourceViewResponse })
  @ApiErrors(400, 404)
  async updateView(
    @CurrentCaller() caller: Caller,
    @Param() params: DataSourceViewParams,
    @Body() body: UpdateDataSourceViewDto,
  ): Promise<DataSourceViewResponse> {
    const view = await this.dataSources.updateView(caller, params.spaceId, params.dsvId, body.parentsIn);
    return { dataSourceView: renderDataSourceView(view) };
  }

  @Delete('data_source_views/:dsvId')
  @Auth({ scopes: ['write:data_source'], roles: ['admin'] })
  @ApiOperation({
    summary: 'Delete a custom data source view.',
    description:
      'Admins, with `write:data_source`. The default view of a data source (the one in its own ' +
      'space) cannot be deleted: 400.',
  })
  @ApiOkResponse({
    type: DataSourceViewResponse,
    description: 'The deleted view. The default view of a data source cannot be deleted (400).',
  })
  @ApiErrors(400, 404)
  async deleteView(
    @CurrentCaller() caller: Caller,
    @Param() params: DataSourceViewParams,
  ): Promise<DataSourceViewResponse> {
    const view = await this.dataSources.deleteView(caller, params.spaceId, params.dsvId);
    return { dataSourceView: renderDataSourceView(view) };
  }
}
