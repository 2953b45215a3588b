import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ErrorTexts } from './error-texts.js';

const logger = pino({ level: 'silent' });

describe('ErrorTexts', () => {
  it('answers from the last copy it loaded, and keeps it when a reload fails', async () => {
    let rows: Array<{ code: number; message: string }> | Error = [{ code: 40400, message: 'gone' }];
    const texts = new ErrorTexts({
      load: async () => {
        if (rows instanceof Error) throw rows;
        return rows;
      },
      refreshMs: 60_000,
      logger,
    });
    expect(texts.messageFor(40400)).toBeUndefined();
    await texts.refresh();
    expect(texts.messageFor(40400)).toBe('gone');
    expect(texts.messageFor(40300)).toBeUndefined();
    rows = new Error('database down');
    await texts.refresh();
    expect(texts.messageFor(40400)).toBe('gone');
    rows = [];
    await texts.refresh();
    expect(texts.messageFor(40400)).toBeUndefined();
  });
});
