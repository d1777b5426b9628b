// Report data saved from the API: `GET /api/srs/{id}/data.json` answers in the envelope
// `{success, message, requestID, executed_at, data}` (http/envelope.ts), and whoever saves that
// answer to feed `starter --data` or `render --data` means its `data` (the commands' rows). A
// starter built from the envelope itself would have fields `success`, `message`, `requestID`.

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The envelope's own keys; `executed_at` is optional (it came later than the others). */
const ENVELOPE_KEYS = ['success', 'message', 'requestID', 'data'] as const;

/** Whether `v` is an answer of this API rather than report data. */
export function isApiEnvelope(v: unknown): v is { success: boolean; message: string; data: unknown } {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  if (!ENVELOPE_KEYS.every((k) => keys.includes(k))) return false;
  if (!keys.every((k) => (ENVELOPE_KEYS as readonly string[]).includes(k) || k === 'executed_at')) return false;
  return typeof v.success === 'boolean' && typeof v.message === 'string' && typeof v.requestID === 'string';
}

/** The data of a saved API answer that cannot be report data, and why. */
export class EnvelopeDataError extends Error {}

/**
 * The report data a value holds: the value itself, or the `data` of a successful
 * `GET /api/srs/{id}/data.json` answer. A failure answer, or an answer whose data is not an
 * object of commands, is refused with an EnvelopeDataError that says what the file is.
 */
export function reportDataOf(v: unknown): { data: unknown; unwrapped: boolean } {
  if (!isApiEnvelope(v)) return { data: v, unwrapped: false };
  if (!v.success)
    throw new EnvelopeDataError(
      `this is a failure answer of the API ("${v.message.slice(0, 200)}"), not report data: ` +
        'save the answer of a successful GET /api/srs/{id}/data.json',
    );
  if (!isPlainObject(v.data))
    throw new EnvelopeDataError(
      'this is an answer of the API whose data is not an object of commands: ' +
        'save the answer of GET /api/srs/{id}/data.json',
    );
  return { data: v.data, unwrapped: true };
}
