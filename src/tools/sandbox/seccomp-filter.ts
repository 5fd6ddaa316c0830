/**
 * A classic-BPF seccomp program, handed to bubblewrap (`--seccomp FD`), that
 * refuses to give any file a set-user-id or set-group-id bit. Commands run as
 * whatever user Cadre runs as — root in many containers — and a file they
 * leave in the workspace outlives the sandbox: `cp /bin/sh x && chmod 6755 x`
 * would leave a root shell for anyone who can run it later. The capability
 * drop does not stop this (an owner may always chmod its own files), so the
 * system calls that set a mode are checked instead: chmod and friends, and
 * the file-creating calls with a mode argument.
 */

/** Architectures we can assemble a filter for; elsewhere commands run without it. */
export type FilterArch = 'x64' | 'arm64';

const SET_ID_BITS = 0o6000;
/** O_CREAT | __O_TMPFILE: the open flags with which a mode argument is used. */
const CREATING_FLAGS = 0o100 | 0o20000000;
const EPERM = 1;
const ENOSYS = 38;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
/** Offsets in `struct seccomp_data`: nr, arch, then six 64-bit arguments (low word first). */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const argOffset = (index: number): number => 16 + 8 * index;

/** What a system call is checked for. */
type Check =
  /** Refused when the mode argument carries a set-id bit. */
  | { kind: 'mode'; modeArg: number }
  /** Refused when it creates a file (flags) with a set-id bit in the mode argument. */
  | { kind: 'creatingMode'; flagsArg: number; modeArg: number }
  /** Refused outright: its arguments cannot be read by the filter (a struct, a ring). */
  | { kind: 'refuse'; errno: number };

interface ArchTable {
  /** AUDIT_ARCH_* of the native ABI; any other ABI (i386 on x86_64) is refused. */
  audit: number;
  /** x32 system calls are native numbers with this bit set. */
  x32Bit?: number;
  calls: ReadonlyArray<readonly [number, Check]>;
}

const mode = (modeArg: number): Check => ({ kind: 'mode', modeArg });
const creating = (flagsArg: number, modeArg: number): Check => ({
  kind: 'creatingMode',
  flagsArg,
  modeArg,
});
const refuse: Check = { kind: 'refuse', errno: ENOSYS };

const TABLES: Record<FilterArch, ArchTable> = {
  x64: {
    audit: 0xc000003e,
    x32Bit: 0x40000000,
    calls: [
      [90, mode(1)], // chmod
      [91, mode(1)], // fchmod
      [268, mode(2)], // fchmodat
      [452, mode(2)], // fchmodat2
      [2, creating(1, 2)], // open
      [257, creating(2, 3)], // openat
      [85, mode(1)], // creat
      [133, mode(1)], // mknod
      [259, mode(2)], // mknodat
      [437, refuse], // openat2: the mode is inside a struct (libc falls back to openat)
      [425, refuse], // io_uring_setup: its opens are not system calls a filter sees
    ],
  },
  arm64: {
    audit: 0xc00000b7,
    calls: [
      [52, mode(1)], // fchmod
      [53, mode(2)], // fchmodat
      [452, mode(2)], // fchmodat2
      [56, creating(2, 3)], // openat
      [33, mode(2)], // mknodat
      [437, refuse], // openat2
      [425, refuse], // io_uring_setup
    ],
  },
};

/** The filter architecture for this Node process, or undefined where none is assembled. */
export function filterArchFor(arch: string): FilterArch | undefined {
  return arch === 'x64' || arch === 'arm64' ? arch : undefined;
}

/** The program as bubblewrap reads it: `struct sock_filter` entries in the host's byte order. */
export function setIdFilter(arch: FilterArch): Uint8Array {
  return encode(assemble(TABLES[arch]));
}

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const ins = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k });
const ret = (value: number): Instruction => ins(RET_K, value);

function assemble(table: ArchTable): Instruction[] {
  const refuseAll = ret(RET_ERRNO | ENOSYS);
  // Each block ends in a return, so the dispatch chain below can skip a whole block.
  const blocks = table.calls.map(([nr, check]) => ({ nr, body: checkBody(check) }));
  const dispatch: Instruction[] = [];
  for (const { nr, body } of blocks) dispatch.push(ins(JEQ_K, nr, 0, body.length), ...body);
  dispatch.push(ret(RET_ALLOW));
  const head = [ins(LD_W_ABS, ARCH_OFFSET), ins(JEQ_K, table.audit, 1, 0), refuseAll];
  head.push(ins(LD_W_ABS, NR_OFFSET));
  if (table.x32Bit !== undefined) head.push(ins(JGE_K, table.x32Bit, 0, 1), refuseAll);
  return [...head, ...dispatch];
}

function checkBody(check: Check): Instruction[] {
  const refused = ret(RET_ERRNO | EPERM);
  switch (check.kind) {
    case 'mode':
      return [
        ins(LD_W_ABS, argOffset(check.modeArg)),
        ins(JSET_K, SET_ID_BITS, 0, 1),
        refused,
        ret(RET_ALLOW),
      ];
    case 'creatingMode':
      return [
        ins(LD_W_ABS, argOffset(check.flagsArg)),
        ins(JSET_K, CREATING_FLAGS, 0, 3),
        ins(LD_W_ABS, argOffset(check.modeArg)),
        ins(JSET_K, SET_ID_BITS, 0, 1),
        refused,
        ret(RET_ALLOW),
      ];
    case 'refuse':
      return [ret(RET_ERRNO | check.errno)];
    default:
      return check satisfies never;
  }
}

function encode(program: readonly Instruction[]): Uint8Array {
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  // Both architectures we assemble for are little-endian.
  program.forEach((instruction, index) => {
    const at = index * 8;
    if (instruction.jt > 255 || instruction.jf > 255) throw new RangeError('jump too far');
    view.setUint16(at, instruction.code, true);
    view.setUint8(at + 2, instruction.jt);
    view.setUint8(at + 3, instruction.jf);
    view.setUint32(at + 4, instruction.k >>> 0, true);
  });
  return bytes;
}
