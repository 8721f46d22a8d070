import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SID_PATTERN, WorkspaceParams } from 'src/platform/http/route-params';
import { SCOPES, Scope } from 'src/platform/auth/scopes';
import { API_KEY_NAME_MAX } from 'src/modules/identity/domain/api-key';

export class CreateApiKeyDto {
  /** @example "CI pipeline" */
  @IsString()
  @MinLength(1)
  @MaxLength(API_KEY_NAME_MAX)
  @HumanName()
  name!: string;

  /** Defaults to the scopes of the calling key. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes?: Scope[];

  /** sId of the member who will own the key (admins only). */
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  userId?: string;
}

export class KeyParams extends WorkspaceParams {
  /**
   * Id of the API key (`key_…`), not its secret.
   * @example key_Hx2Lm8Pq4W
   */
  @IsString()
  keyId!: string;
}
