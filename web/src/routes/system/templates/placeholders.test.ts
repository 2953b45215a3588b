import { describe, expect, it } from 'vitest';
import { placeholderOf, unknownPlaceholders } from './placeholders';

describe('template placeholders', () => {
  it('names the unknown ones once each, spaces inside the braces allowed', () => {
    const allowed = ['instance_title', 'instance_id'];
    expect(unknownPlaceholders('"{{ instance_title }}" #{{instance_id}}', allowed)).toEqual([]);
    expect(unknownPlaceholders('{{user}} {{ user }} {{x}} {{instance_id}}', allowed)).toEqual([
      'user',
      'x',
    ]);
    expect(unknownPlaceholders('no braces {single}', allowed)).toEqual([]);
  });

  it('writes a placeholder as the template takes it', () => {
    expect(placeholderOf('link')).toBe('{{link}}');
  });
});
