import { describe, expect, it } from '@jest/globals';
import { isIanaTimeZone } from 'src/platform/text/time-zones';

describe('IANA time zones', () => {
  it('accepts zone names and their aliases', () => {
    for (const name of [
      'Europe/Paris',
      'America/New_York',
      'UTC',
      'Etc/GMT+1',
      'US/Eastern',
      'Asia/Calcutta',
    ]) {
      expect({ name, valid: isIanaTimeZone(name) }).toEqual({ name, valid: true });
    }
  });

  it('refuses UTC offsets, which Intl takes as zones, and what is no zone at all', () => {
    for (const name of ['+01:00', '-0530', '+01', '-12:00', 'Mars/Olympus', '', 'Europe/Paris/x']) {
      expect({ name, valid: isIanaTimeZone(name) }).toEqual({ name, valid: false });
    }
  });
});
