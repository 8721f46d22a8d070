import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { withoutRefusedCharacters } from 'src/platform/text/names';

export const FILE_NAME_MAX = 255;
/** An extension this long or shorter survives the truncation of an over-long name. */
const EXTENSION_MAX = 16;

const SEPARATORS = /[/\\]/g;

/**
 * A file name safe to store and to offer back in Content-Disposition: no path separators (they
 * become `_`), none of the characters names refuse (controls, bidirectional controls that disguise
 * an extension, invisible characters; removed, since a file keeps the name its system gave it),
 * trimmed, at most 255 characters (keeping a short extension). A name with nothing printable left
 * is refused.
 */
export function sanitiseFileName(raw: string): string {
  const printable = withoutRefusedCharacters(raw.normalize('NFC'));
  const cleaned = printable.replace(SEPARATORS, '_').trim();
  if (cleaned === '' || /^\.+$/.test(cleaned)) {
    throw new InvalidRequestError('fileName: must contain at least one printable character other than dots.');
  }
  const chars = [...cleaned];
  if (chars.length <= FILE_NAME_MAX) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && [...cleaned.slice(dot)].length <= EXTENSION_MAX ? [...cleaned.slice(dot)] : [];
  return [...chars.slice(0, FILE_NAME_MAX - extension.length), ...extension].join('').trim();
}
