import { describe, expect, it } from 'vitest';
import {
  contentDisposition,
  sanitizeFileName,
  servedInline,
  storedContentType,
} from './file-name.js';

describe('sanitizeFileName', () => {
  it('keeps only the last path part, without controls, bidi or leading dots', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('..\\..\\windows\\win.ini')).toBe('win.ini');
    expect(sanitizeFileName('report\u202egpj.exe')).toBe('reportgpj.exe');
    expect(sanitizeFileName('a\u0000b\r\nc.txt')).toBe('abc.txt');
    expect(sanitizeFileName('..')).toBe('file');
    expect(sanitizeFileName('.env')).toBe('env');
    expect(sanitizeFileName('a<b>:c"d|e?f*.txt')).toBe('a_b__c_d_e_f_.txt');
    expect(sanitizeFileName(undefined)).toBe('file');
    expect(sanitizeFileName('   ')).toBe('file');
  });

  it('keeps unicode names and bounds the length in characters', () => {
    expect(sanitizeFileName('报销单.pdf')).toBe('报销单.pdf');
    expect([...sanitizeFileName('é'.repeat(500))].length).toBe(200);
  });
});

describe('served types', () => {
  it('shows raster images inline and never SVG or HTML', () => {
    for (const t of ['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
      expect(servedInline(t)).toBe(true);
    for (const t of ['image/svg+xml', 'text/html', 'application/pdf'])
      expect(servedInline(t)).toBe(false);
  });

  it('stores a plain media type, anything else as octet-stream', () => {
    expect(storedContentType('Image/PNG')).toBe('image/png');
    expect(storedContentType('text/html; charset=utf-8')).toBe('application/octet-stream');
    expect(storedContentType('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(storedContentType(undefined)).toBe('application/octet-stream');
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact name as filename* (RFC 6266)', () => {
    expect(contentDisposition('attachment', '报销 "单".pdf')).toBe(
      `attachment; filename="__ ___.pdf"; filename*=UTF-8''%E6%8A%A5%E9%94%80%20%22%E5%8D%95%22.pdf`,
    );
    expect(contentDisposition('inline', "it's (1).png")).toBe(
      `inline; filename="it's (1).png"; filename*=UTF-8''it%27s%20%281%29.png`,
    );
  });
});
