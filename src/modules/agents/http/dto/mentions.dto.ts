import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/** The longest query a picker sends: more than any name it could match. */
export const MENTION_QUERY_MAX = 128;
/** The longest text to parse: a message's content at most. */
export const MENTION_MARKDOWN_MAX = 100_000;
export const MENTION_KINDS = ['agents', 'users'] as const;
export type MentionKind = (typeof MENTION_KINDS)[number];

export class MentionSuggestionsQuery {
  /**
   * What the caller typed after `@`: agents and members whose name (or a word of it, or a member's
   * username) starts with it come first, then those containing it. Empty lists all.
   * @example ana
   */
  @IsString()
  @MaxLength(MENTION_QUERY_MAX)
  query!: string;

  @ApiPropertyOptional({
    type: [String],
    enum: MENTION_KINDS,
    description: 'The kinds to suggest, repeated for both (`select=agents&select=users`); both when absent.',
    example: ['agents'],
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(MENTION_KINDS.length)
  @IsIn(MENTION_KINDS, { each: true })
  select?: MentionKind[];

  /** `true` to include the caller among the members suggested; left out otherwise. */
  @IsOptional()
  @IsIn(['true', 'false'])
  current?: 'true' | 'false';
}

export class ParseMentionsDto {
  @ApiProperty({
    description: `Text holding \`@name\` mentions, at most ${MENTION_MARKDOWN_MAX} characters.`,
    example: 'Hello @support-bot, can you check the refund policy?',
  })
  @IsString()
  @MaxLength(MENTION_MARKDOWN_MAX)
  markdown!: string;
}
