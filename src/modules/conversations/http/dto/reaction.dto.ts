import { ApiProperty } from '@nestjs/swagger';
import { Text } from 'src/platform/http/input-fields';
import { EMOJI_MAX } from 'src/modules/conversations/domain/message';

const REACTION_FORMS =
  'One emoji (a grapheme of the Unicode RGI emoji set; its text form such as ❤ is stored as ❤️), an emoji id as emoji pickers send it (`+1`, `heart`, `tada`: letters, digits, _ + -) or a :shortcode: (stored as its id, so `:+1:` and `+1` are one reaction).';

/** The body that adds or removes the caller's reaction to a message: `emoji` or `reaction`, exactly one. */
export class ReactionDto {
  @ApiProperty({ required: false, example: '👍', description: REACTION_FORMS })
  @Text({ min: 1, max: EMOJI_MAX, presence: 'optional' })
  emoji?: string;

  @ApiProperty({
    required: false,
    example: '+1',
    description: `The same as \`emoji\`, under the key Dust's client and UI send. ${REACTION_FORMS}`,
  })
  @Text({ min: 1, max: EMOJI_MAX, presence: 'optional' })
  reaction?: string;
}
