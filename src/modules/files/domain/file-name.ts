import { InvalidRequestError } from 'src/platform/errors/domain-error';

export const FILE_NAME_MAX = 255;
/** An extension this long or shorter survives the truncation of an over-long name. */
const EXTENSION_MAX = 16;

/** Control characters (C0, DEL, C1) and the bidirectional marks and overrides that disguise an extension. */
function isUnprintable(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

const SEPARATORS = /[/\\]/g;

/**
 * A file name safe to store and to offer back in Content-Disposition: no path separators (they
 * become `_`), no control or direction-override characters, trimmed, at most 255 characters
 * (keeping a short extension). A name with nothing printable left is refused.
 */
export function sanitiseFileName(raw: string): string {
  const printable = [...raw.normalize('NFC')].filter((char) => !isUnprintable(char)).join('');
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
