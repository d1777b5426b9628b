// `_max_pages=N` on the render routes (.frx.html, .frx.pdf): the caller asks for the first N
// pages of a report that has more, and gets them with `X-Report-Truncated: pages=N`, instead of
// a 422 `render_too_large` past Settings:RenderMaxPages. Without it a report is never cut.
//
// The leading underscore keeps it apart from the SRS's own params, whose names start with a
// letter (definition/parse.ts), and from the names the service binds (`_username`…), which a
// request cannot set anyway. Like a param it may come in the query string or the body, the
// query winning; the name is matched exactly.
import { invalid } from '../lib/errors.js';
import type { ParamInput } from './params.js';

export const MAX_PAGES_PARAM = '_max_pages';

/** The response header of a report cut at `_max_pages` (absent when it was not cut). */
export const TRUNCATED_HEADER = 'X-Report-Truncated';

const WHOLE = /^\d{1,9}$/;

function given(input: ParamInput): { found: boolean; value: unknown } {
  if (Object.hasOwn(input.query, MAX_PAGES_PARAM)) return { found: true, value: input.query[MAX_PAGES_PARAM] };
  if (input.body && Object.hasOwn(input.body, MAX_PAGES_PARAM))
    return { found: true, value: input.body[MAX_PAGES_PARAM] };
  return { found: false, value: undefined };
}

/** The pages asked for with `_max_pages` (1 to `limit`, the page limit), or undefined when the
 *  request does not ask; anything else is a 400 naming the range. */
export function requestedMaxPages(input: ParamInput, limit: number): number | undefined {
  const { found, value } = given(input);
  if (!found) return undefined;
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && WHOLE.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > limit) {
    const shown =
      typeof value === 'string' || typeof value === 'number'
        ? JSON.stringify(String(value).slice(0, 40))
        : Array.isArray(value)
          ? 'more than one value'
          : typeof value;
    const message =
      `${MAX_PAGES_PARAM} must be a whole number of pages from 1 to ${limit} (Settings:RenderMaxPages) ` +
      `(got ${shown})`;
    throw invalid('invalid_param', message, [{ field: MAX_PAGES_PARAM, rule: 'range', message }]);
  }
  return n;
}
