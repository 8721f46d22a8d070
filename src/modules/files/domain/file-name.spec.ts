import { describe, expect, it } from '@jest/globals';
import { FILE_NAME_MAX, sanitiseFileName } from 'src/modules/files/domain/file-name';

describe('sanitiseFileName', () => {
  it('keeps an ordinary name, accents and spaces included', () => {
    expect(sanitiseFileName('Relevé de compte 2024.pdf')).toBe('Relevé de compte 2024.pdf');
  });

  it('turns path separators into underscores', () => {
    expect(sanitiseFileName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(sanitiseFileName('C:\\Users\\ada\\notes.txt')).toBe('C:_Users_ada_notes.txt');
  });

  it('drops control, direction-override and invisible characters (emoji joiners aside), and trims', () => {
    expect(sanitiseFileName(' invoice\u0000\u001b\u0085\u202Efdp.exe\t')).toBe('invoicefdp.exe');
    expect(sanitiseFileName('re\u200bport\u2060.pdf')).toBe('report.pdf');
    expect(sanitiseFileName('👩\u200d💻 notes.md')).toBe('👩\u200d💻 notes.md');
  });

  it('cuts an over-long name to 255 characters, keeping its extension', () => {
    const name = sanitiseFileName(`${'a'.repeat(300)}.docx`);
    expect(name).toHaveLength(FILE_NAME_MAX);
    expect(name.endsWith('a.docx')).toBe(true);
    expect([...sanitiseFileName('😀'.repeat(300))]).toHaveLength(FILE_NAME_MAX);
  });

  it('refuses a name with nothing printable left', () => {
    for (const name of ['', '   ', '\u0001\u0002', '.', '...']) {
      expect(() => sanitiseFileName(name)).toThrow(
        expect.objectContaining({ code: 'invalid_request_error' }),
      );
    }
  });
});
