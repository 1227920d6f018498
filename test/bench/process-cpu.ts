import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** Parent pid and CPU ticks (user + system) of one process, from /proc/<pid>/stat; throws once it has ended. */
function readProcess(pid: number | string): { ppid: number; ticks: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after "(comm)": state ppid … utime(14th of the line) stime(15th).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
}

/**
 * CPU seconds (user + system) used so far by the process `pid` alone, not its children. Linux only.
 * @example processCpuSeconds(server.pid) // 1.12
 */
export function processCpuSeconds(pid: number): number {
  return readProcess(pid).ticks / TICKS_PER_SECOND;
}

/** Parent pid and CPU ticks (user + system) of every process in /proc; empty where /proc is absent. */
function readProcesses(): Map<number, { ppid: number; ticks: number }> {
  const processes = new Map<number, { ppid: number; ticks: number }>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return processes;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      processes.set(Number(entry), readProcess(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return processes;
}

/**
 * CPU seconds used so far by the given processes and all their descendants (a server and its anvil chains, a gateway
 * and its subgraphs): what one side of a comparison costs the machine, whatever else runs on it. Linux only; 0 elsewhere.
 * @example const before = processTreeCpuSeconds([server.pid]); … ; const used = processTreeCpuSeconds([server.pid]) - before
 */
export function processTreeCpuSeconds(roots: readonly number[]): number {
  const processes = readProcesses();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of processes) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let ticks = 0;
  const stack = [...roots];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    ticks += processes.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return ticks / TICKS_PER_SECOND;
}
