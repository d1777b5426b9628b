// Keeps one of Node's `process.nextTick` queue entries alive for the life of the process, so
// that V8 never has to rebuild the hidden class ("map") those entries share.
//
// Why: Node builds each entry as `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …,
// callback, args }`. V8 records, for each computed key of such a literal, the one map it saw;
// for this kind of literal store there is no polymorphic state: a second, different map turns
// the site megamorphic for good. The maps of the entry are only held by live entries, and the
// tick queue is empty between turns, so a full GC at a quiet moment frees them; the next tick
// builds new ones and the sites go megamorphic. From then on every `nextTick` defines its keys
// through the V8 runtime. An HTTP request runs about a dozen ticks, so this cost
// platform-core about 5 µs of CPU per request, roughly a fifth of a ping. Whether it happened
// depended on when the first such GC ran, which is why the same server measured anywhere from
// 0.7 to 0.9 of a bare Fastify route.
//
// One entry held for good keeps the whole chain of maps alive (each map holds its parent), and
// the sites stay monomorphic. The entry is captured with a documented API: an async_hooks
// `init` callback receives it as the TickObject's resource. The hook is enabled around one
// `nextTick` only, so nothing is left running. test/unit/tick-object-shape.test.ts checks the
// V8 feedback directly, on each supported Node version.
//
// What this does not prevent: a map change for another reason, such as an async id past the
// small-integer range (about 2^31 ids, some hundred million requests), still turns the sites
// megamorphic; the server then runs at its former speed.
import { createHook } from 'node:async_hooks';

let held: object | undefined;

/**
 * Holds one nextTick queue entry for good (see above). Call as early as possible: a full GC
 * before the call may already have turned the sites megamorphic. Later calls do nothing.
 * Returns whether an entry is held.
 */
export function holdTickObjectShape(): boolean {
  if (held !== undefined) return true;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && held === undefined) held = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(noop);
  } finally {
    hook.disable();
  }
  return held !== undefined;
}

function noop(): void {}
