import { applyDecorators } from '@nestjs/common';
import {
  ArrayMaxSize,
  IsArray,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { OneOf, Text } from 'src/platform/http/input-fields';
import { SID_PATTERN, SpaceParams } from 'src/platform/http/route-params';
import {
  CONNECTOR_PROVIDERS,
  ConnectorProvider,
  DATA_SOURCE_DESCRIPTION_MAX,
  DATA_SOURCE_NAME_MAX,
} from 'src/modules/data-sources/domain/data-source';
import {
  DATA_SOURCE_VIEW_KINDS,
  DataSourceViewKind,
  PARENTS_IN_MAX,
  PARENT_ID_MAX,
} from 'src/modules/data-sources/domain/data-source-view';

/** parentsIn: an array of parent ids, or null for the whole data source. */
const ParentsIn = () =>
  applyDecorators(
    IsArray({ message: 'parentsIn must be an array of parent ids, or null for the whole data source' }),
    ArrayMaxSize(PARENTS_IN_MAX),
    IsString({ each: true }),
    MinLength(1, { each: true }),
    MaxLength(PARENT_ID_MAX, { each: true }),
  );

export class CreateDataSourceDto {
  /** @example "Engineering handbook" */
  @Text({ min: 1, max: DATA_SOURCE_NAME_MAX, human: true })
  name!: string;

  /** Defaults to empty. */
  @Text({ max: DATA_SOURCE_DESCRIPTION_MAX, presence: 'omittable' })
  description?: string;

  /** The connector that feeds the data source; absent or null for a folder. */
  @OneOf(CONNECTOR_PROVIDERS, { presence: 'optional' })
  connectorProvider?: ConnectorProvider | null;

  /**
   * The PostgreSQL text-search configuration of its documents (`pg_ts_config`): `simple` (the
   * default) works for any language; a language (`english`, `french`…) stems words and drops stop
   * words.
   * @example english
   */
  @Text({ max: 63, presence: 'optional' })
  textSearchConfig?: string | null;
}

export class CreateDataSourceViewDto {
  /**
   * sId of a data source of the workspace.
   * @example dts_3fZ0aBcDeF
   */
  @IsString()
  @Matches(SID_PATTERN, { message: 'dataSourceId must be a data source sId such as dts_3fZ0aBcDeF' })
  dataSourceId!: string;

  /** The parent nodes the view exposes; absent or null: the whole data source. */
  @IsOptional()
  @ParentsIn()
  parentsIn?: string[] | null;
}

export class UpdateDataSourceViewDto {
  /** The parent nodes the view exposes; null: the whole data source. */
  @ValidateIf((_, value) => value !== null)
  @ParentsIn()
  parentsIn!: string[] | null;
}

/** A list of parent ids added to or removed from a view. */
const ParentsList = () =>
  applyDecorators(
    IsOptional(),
    IsArray(),
    ArrayMaxSize(PARENTS_IN_MAX),
    IsString({ each: true }),
    MinLength(1, { each: true }),
    MaxLength(PARENT_ID_MAX, { each: true }),
  );

/** Dust's PATCH of a view: `parentsIn` replaces, or `parentsToAdd`/`parentsToRemove` change; not both. */
export class PatchDataSourceViewDto {
  /**
   * The parent nodes the view exposes from now on; null: the whole data source.
   * @example ["handbook", "policies"]
   */
  @IsOptional()
  @ParentsIn()
  parentsIn?: string[] | null;

  /**
   * Parent nodes the view exposes in addition (a view of the whole data source then exposes only these).
   * @example ["faq"]
   */
  @ParentsList()
  parentsToAdd?: string[];

  /**
   * Parent nodes the view no longer exposes.
   * @example ["drafts"]
   */
  @ParentsList()
  parentsToRemove?: string[];
}

/** Dust's workspace-wide search of data source views (a vault is a space). */
export class SearchDataSourceViewsQuery {
  /**
   * Only the views of this data source (`dts_…`).
   * @example dts_Rk2Wq9Lm4P
   */
  @Text({ max: 64, presence: 'optional' })
  dataSourceId?: string;

  /** Only views of this kind: `default` (in the data source's own space) or `custom`. */
  @OneOf(DATA_SOURCE_VIEW_KINDS, { presence: 'optional' })
  kind?: DataSourceViewKind;

  /**
   * Only the views in this space (`vlt_…`).
   * @example vlt_Qz81dVbXk3
   */
  @Text({ max: 64, presence: 'optional' })
  vaultId?: string;

  /** Only the views in spaces of this kind. */
  @OneOf(['global', 'regular'], { presence: 'optional' })
  vaultKind?: 'global' | 'regular';
}

export class DataSourceViewParams extends SpaceParams {
  /**
   * sId of the data source view (`dsv_…`).
   * @example dsv_Hb4Tz8Nc1L
   */
  @IsString()
  dsvId!: string;
}
