// Stored text shown on a terminal or in the console: control characters become visible escapes.
import { describe, expect, it } from 'vitest';
import { escapeControls, escapeControlsInLines } from '../../src/lib/visible-text.js';

describe('escapeControls', () => {
  it('writes C0 and C1 controls, DEL, bidi controls and line separators as escapes', () => {
    const hostile = 'a\r\nb\tc\u0000d\u001b[2Je\u007ff\u009b31mg\u202eh\u2066i\u200fj\u061ck\u2028l\u2029m';
    expect(escapeControls(hostile)).toBe(
      'a\\r\\nb\\tc\\x00d\\x1b[2Je\\u007ff\\u009b31mg\\u202eh\\u2066i\\u200fj\\u061ck\\u2028l\\u2029m',
    );
  });

  it('leaves printable text alone, other languages and emoji included', () => {
    const text = 'Zo\u00eb \u5c71\u7530 \u05e2\u05d1\u05e8\u05d9\u05ea \u{1f469}\u200d\u{1f4bb} {"a":"b\\\\c"}';
    expect(escapeControls(text)).toBe(text);
  });

  it('keeps JSON text valid JSON, with the same value', () => {
    const value = { actor: 'x\u009b2J\u202e\u007f\u2028y', n: 1 };
    const escaped = escapeControls(JSON.stringify(value));
    expect(escaped).not.toMatch(/[\u007f-\u009f\u202e\u2028]/);
    expect(JSON.parse(escaped)).toEqual(value);
  });

  it('escapeControlsInLines keeps the line breaks of a message, and nothing else', () => {
    expect(escapeControlsInLines('one\r\ntwo\u001b[2J\nthree')).toBe('one\\r\ntwo\\x1b[2J\nthree');
  });
});
