// `tsx bench/lib/profile-summary.ts <file.cpuprofile> [top]`: where a V8 CPU profile's time went,
// by self time and by inclusive time, per function and per package/file. A flame graph in Chrome
// DevTools shows the same, but not as text that a decision record or a review can quote.
//
// Inclusive time counts each sample once per function (or group) even when it recurses, so a
// share never exceeds 100 %.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const profileSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({
        functionName: z.string(),
        url: z.string(),
        lineNumber: z.number(),
      }),
      children: z.array(z.number()).optional(),
    }),
  ),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
  startTime: z.number(),
  endTime: z.number(),
});
type Profile = z.infer<typeof profileSchema>;
type Frame = Profile['nodes'][number]['callFrame'];

/** The package a frame belongs to (`fastify`, `@fastify/cookie`), else its file under the repo, else V8's name. */
export function groupOf(frame: Frame): string {
  const { url, functionName } = frame;
  if (!url) return `(${functionName || 'anonymous'})`; // (garbage collector), (program), (idle)
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = file.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? file);
  }
  if (file.startsWith('node:')) return file;
  const dist = file.indexOf('/dist/');
  return dist >= 0 ? file.slice(dist + 1) : path.basename(file);
}

const functionOf = (frame: Frame): string =>
  `${frame.functionName || '(anonymous)'} ${groupOf(frame)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;

export interface Share {
  name: string;
  selfMs: number;
  inclusiveMs: number;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  byFunction: Share[];
  byGroup: Share[];
}

/**
 * `under`: only the samples whose stack holds a function whose name (as printed) contains it.
 * `window`: only the samples taken between these seconds after the profile's start (e.g. one
 * load run of several).
 */
export function summariseProfile(
  raw: unknown,
  under?: string,
  window?: { fromS: number; toS: number },
): ProfileSummary {
  const profile = profileSchema.parse(raw);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Time per sample: V8 records the delta *before* each sample, so sample i lasted delta i+1.
  const stackOf = (leafId: number): Frame[] => {
    const frames: Frame[] = [];
    for (let id: number | undefined = leafId; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (frame) frames.push(frame);
    }
    return frames;
  };
  const sampleMs = new Map<number, number>();
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    atUs += profile.timeDeltas[i] ?? 0;
    if (window && (atUs < window.fromS * 1e6 || atUs > window.toS * 1e6)) return;
    const us = profile.timeDeltas[i + 1] ?? 0;
    sampleMs.set(id, (sampleMs.get(id) ?? 0) + us / 1000);
  });

  const fns = new Map<string, Share>();
  const groups = new Map<string, Share>();
  const entry = (map: Map<string, Share>, name: string): Share => {
    let s = map.get(name);
    if (!s) map.set(name, (s = { name, selfMs: 0, inclusiveMs: 0 }));
    return s;
  };
  let totalMs = 0;
  let idleMs = 0;
  for (const [leafId, msHere] of sampleMs) {
    const leaf = byId.get(leafId);
    if (!leaf) continue;
    if (under !== undefined && !stackOf(leafId).some((f) => functionOf(f).includes(under))) continue;
    totalMs += msHere;
    if (leaf.callFrame.functionName === '(idle)') idleMs += msHere;
    entry(fns, functionOf(leaf.callFrame)).selfMs += msHere;
    entry(groups, groupOf(leaf.callFrame)).selfMs += msHere;
    const seenFns = new Set<string>();
    const seenGroups = new Set<string>();
    for (const frame of stackOf(leafId)) {
      if (frame.functionName === '(root)') continue;
      seenFns.add(functionOf(frame));
      seenGroups.add(groupOf(frame));
    }
    for (const f of seenFns) entry(fns, f).inclusiveMs += msHere;
    for (const g of seenGroups) entry(groups, g).inclusiveMs += msHere;
  }
  return { totalMs, idleMs, byFunction: [...fns.values()], byGroup: [...groups.values()] };
}

function print(title: string, shares: Share[], key: 'selfMs' | 'inclusiveMs', busyMs: number, top: number): void {
  console.log(`\n${title}`);
  console.log(`${'self'.padStart(7)} ${'incl'.padStart(7)}  name`);
  for (const s of [...shares].sort((a, b) => b[key] - a[key]).slice(0, top)) {
    const pct = (v: number) => `${((v / busyMs) * 100).toFixed(1)}%`.padStart(7);
    console.log(`${pct(s.selfMs)} ${pct(s.inclusiveMs)}  ${s.name}`);
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const [file, topArg, under] = process.argv.slice(2);
  const top = Number(topArg ?? 25);
  if (!file) {
    console.error(
      'usage: [PROFILE_WINDOW=from-to] tsx bench/lib/profile-summary.ts <file.cpuprofile> [top] [only stacks through this function]',
    );
    process.exit(2);
  }
  // PROFILE_WINDOW=from-to (seconds after the profile's start) looks at one part of a run.
  const [fromS, toS] = (process.env.PROFILE_WINDOW ?? '').split('-').map(Number);
  const window =
    fromS !== undefined && toS !== undefined && Number.isFinite(fromS) && Number.isFinite(toS)
      ? { fromS, toS }
      : undefined;
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const summary = summariseProfile(raw, under || undefined, window);
  const whole = under ? summariseProfile(raw, undefined, window) : summary;
  const busyMs = whole.totalMs - whole.idleMs;
  console.log(
    `${path.basename(file)}: ${(whole.totalMs / 1000).toFixed(1)} s sampled, ${(busyMs / 1000).toFixed(1)} s busy ` +
      `(shares below are of the whole busy time${under ? `; only stacks through "${under}"` : ''}` +
      `${window ? `; only ${window.fromS}-${window.toS} s after the start` : ''})`,
  );
  const notIdle = (s: Share) => s.name !== '((idle))' && !s.name.startsWith('(idle) ');
  print('By self time, per package/file', summary.byGroup.filter(notIdle), 'selfMs', busyMs, top);
  print('By inclusive time, per package/file', summary.byGroup.filter(notIdle), 'inclusiveMs', busyMs, top);
  print('By self time, per function', summary.byFunction.filter(notIdle), 'selfMs', busyMs, top);
  print('By inclusive time, per function', summary.byFunction.filter(notIdle), 'inclusiveMs', busyMs, top);
}
