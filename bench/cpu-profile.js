/**
 * Reading a V8 CPU profile (`.cpuprofile`, as bench/profile-on-signal.js writes it): how many of
 * its busy samples were spent in the code a predicate names.
 */

/** Whether a frame is code of its own (a file of the service or a package), not Node's or V8's. */
const ownCode = (frame) => frame.url.startsWith('file://') || frame.url.startsWith('/');

/**
 * Busy samples of `profile`, and those charged to code `counted(callFrame)` accepts. Each sample
 * goes to the innermost frame of its stack that is the service's or a package's code, so Node's
 * internals and V8's builtins count for the code that called them; a sample of Node or V8 alone
 * (the garbage collector, native work of the event loop) is busy and charged to nobody; `(idle)`
 * is not busy.
 */
function chargedSamples(profile, counted) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const verdicts = new Map();
  const chargedToCounted = (id) => {
    if (verdicts.has(id)) return verdicts.get(id);
    const frame = byId.get(id).callFrame;
    const parent = parentOf.get(id);
    const verdict = ownCode(frame) ? counted(frame) : parent !== undefined && chargedToCounted(parent);
    verdicts.set(id, verdict);
    return verdict;
  };
  let busy = 0;
  let charged = 0;
  for (const id of profile.samples) {
    if (byId.get(id).callFrame.functionName === '(idle)') continue;
    busy++;
    if (chargedToCounted(id)) charged++;
  }
  return { busy, charged };
}

module.exports = { chargedSamples };
