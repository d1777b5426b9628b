import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from '../../src/lib/edit-distance.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['invoice', 'invoice', 0],
    ['invoce', 'invoice', 1],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['Invoice', 'invoice', 1],
  ])('%j → %j is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it('gives up past the limit', () => {
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
  });
});

describe('closestNames', () => {
  const templates = ['customer-directory', 'invoice', 'invoice-2', 'invoices', 'lab', 'rows', 'sales-by-customer'];

  it('suggests the closest names first, at most three', () => {
    expect(closestNames('invoce', templates)).toEqual(['invoice', 'invoices']); // invoice-2 is 3 edits away
    expect(closestNames('invoice-', templates)).toEqual(['invoice', 'invoice-2', 'invoices']);
    expect(closestNames('lab', ['lub', 'lob', 'lib', 'lab'])).toEqual(['lab', 'lib', 'lob']);
    expect(closestNames('invoce', templates, 1)).toEqual(['invoice']);
    expect(closestNames('INVOICE', templates)[0]).toBe('invoice');
    expect(closestNames('custmer-directry', templates)).toEqual(['customer-directory']);
  });

  it('suggests nothing far away', () => {
    expect(closestNames('zzzz', templates)).toEqual([]);
    expect(closestNames('x', ['abc', 'lab'])).toEqual([]);
    expect(closestNames('anything', [])).toEqual([]);
  });
});
