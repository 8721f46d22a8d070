import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { EMOJI_MAX } from 'src/modules/conversations/domain/message';

/** The body that adds or removes the caller's reaction to a message. */
export class ReactionDto {
  @ApiProperty({
    example: '👍',
    description:
      'One emoji (a grapheme of the Unicode RGI emoji set; its text form such as ❤ is stored as ❤️) or a :shortcode: (lower-case letters, digits, _ + -).',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(EMOJI_MAX)
  emoji!: string;
}
