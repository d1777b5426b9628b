// Compiled expressions are cached by template object: a script's live copy of an object (a new
// one after every change) finds its template's, and a changed source is compiled anew.

import { describe, expect, it } from 'vitest';
import { Expressions } from '../../../src/report/engine/expressions.js';
import { recordOrigin } from '../../../src/report/engine/model-origin.js';
import type { ReportScope } from '../../../src/report/engine/scope.js';

const scope = { isName: () => true, isFunction: () => false } as unknown as ReportScope;

describe('Expressions cache', () => {
  it('gives a live copy its template object’s compiled text and expression', () => {
    const x = new Expressions(scope);
    const model = { text: '[a] and [b]' };
    const t = x.template(model, 'text', model.text, '[,]', 'M.Text');
    const e = x.expression(model, 'visible', 'a == 1', 'M.Visible');
    const copy = { ...model, color: 'red' };
    recordOrigin(copy, model);
    const again = { ...copy };
    recordOrigin(again, copy);
    expect(x.template(copy, 'text', copy.text, '[,]', 'M.Text')).toBe(t);
    expect(x.template(again, 'text', again.text, '[,]', 'M.Text')).toBe(t);
    expect(x.expression(again, 'visible', 'a == 1', 'M.Visible')).toBe(e);
  });

  it('compiles a changed text or bracket pair anew, and keeps the earlier ones', () => {
    const x = new Expressions(scope);
    const model = {};
    const one = x.template(model, 'text', '[a]', '[,]', 'M.Text');
    const two = x.template(model, 'text', '<a> [b]', '<,>', 'M.Text');
    expect(two).not.toBe(one);
    expect(two.expressions).toHaveLength(1);
    expect(x.template(model, 'text', '[a]', '[,]', 'M.Text')).toBe(one);
    expect(x.template(model, 'text', '<a> [b]', '<,>', 'M.Text')).toBe(two);
    expect(x.expression(model, 'k', 'a + 1', 'w')).not.toBe(x.expression(model, 'k', 'a + 2', 'w'));
  });
});
