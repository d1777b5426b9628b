// The preview policy (preview-policy.ts) written as sanitize-html options: the reference the
// preview's own sanitiser (preview-sanitizer.ts) is tested and benchmarked against. sanitize-html
// was the preview's sanitiser before; the two must give the same output for the same input.
// Only the tests and the benchmark use this (sanitize-html is not needed at run time).
import type sanitizeHtml from 'sanitize-html';
import {
  ALLOWED_ATTRIBUTES,
  ALLOWED_TAGS,
  CODE_CLASS,
  LINK_REL,
  TABLE_ALIGN_PROPERTY,
  TABLE_ALIGN_VALUE,
  URL_SCHEMES,
  urlAllowed,
} from './preview-policy.js';

export function sanitizeHtmlReferenceOptions(): sanitizeHtml.IOptions {
  return {
    allowedTags: [...ALLOWED_TAGS],
    allowedAttributes: Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
    allowedStyles: {
      th: { [TABLE_ALIGN_PROPERTY]: [TABLE_ALIGN_VALUE] },
      td: { [TABLE_ALIGN_PROPERTY]: [TABLE_ALIGN_VALUE] },
    },
    allowedClasses: { code: [CODE_CLASS] },
    allowedSchemes: [...URL_SCHEMES.a],
    allowedSchemesByTag: { img: [...URL_SCHEMES.img] },
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: LINK_REL } }),
      img: (tagName, attribs) => {
        const kept = Object.entries(attribs).filter(([name, value]) => name !== 'src' || urlAllowed(value, 'img'));
        return { tagName, attribs: Object.fromEntries(kept) };
      },
    },
  };
}
