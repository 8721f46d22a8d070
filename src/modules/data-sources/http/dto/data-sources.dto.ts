import { applyDecorators } from '@nestjs/common';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SID_PATTERN, SpaceParams } from 'src/platform/http/route-params';
import {
  CONNECTOR_PROVIDERS,
  ConnectorProvider,
  DATA_SOURCE_DESCRIPTION_MAX,
  DATA_SOURCE_NAME_MAX,
} from 'src/modules/data-sources/domain/data-source';
import { PARENTS_IN_MAX, PARENT_ID_MAX } from 'src/modules/data-sources/domain/data-source-view';

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
  @IsString()
  @MinLength(1)
  @MaxLength(DATA_SOURCE_NAME_MAX)
  @HumanName()
  name!: string;

  /** Defaults to empty. */
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  @MaxLength(DATA_SOURCE_DESCRIPTION_MAX)
  description?: string;

  /** The connector that feeds the data source; absent or null for a folder. */
  @IsOptional()
  @IsIn(CONNECTOR_PROVIDERS)
  connectorProvider?: ConnectorProvider | null;

  /**
   * The PostgreSQL text-search configuration of its documents (`pg_ts_config`): `simple` (the
   * default) works for any language; a language (`english`, `french`…) stems words and drops stop
   * words.
   * @example english
   */
  @IsOptional()
  @IsString()
  @MaxLength(63)
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

export class DataSourceViewParams extends SpaceParams {
  /**
   * sId of the data source view (`dsv_…`).
   * @example dsv_Hb4Tz8Nc1L
   */
  @IsString()
  dsvId!: string;
}
