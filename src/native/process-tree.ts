// The C library's view of the processes below this one. prctl(PR_SET_CHILD_SUBREAPER): a process that is a child
// subreaper becomes the parent of every orphaned process below it (a grandchild whose parent exited), instead of init,
// so no process it started, however deep, can leave its tree while it lives (Linux 3.4 and later). getrusage
// (RUSAGE_CHILDREN): what the children this process has waited for used, summed, which grows with every one reaped.
import koffi from 'koffi'

/** From <linux/prctl.h> and <sys/resource.h>. */
const PR_SET_CHILD_SUBREAPER = 36
const RUSAGE_CHILDREN = -1

const timeval = koffi.struct('kb_timeval', { tv_sec: 'long', tv_usec: 'long' })
const rusage = koffi.struct('kb_rusage', {
  ru_utime: timeval,
  ru_stime: timeval,
  ru_maxrss: 'long',
  ru_ixrss: 'long',
  ru_idrss: 'long',
  ru_isrss: 'long',
  ru_minflt: 'long',
  ru_majflt: 'long',
  ru_nswap: 'long',
  ru_inblock: 'long',
  ru_oublock: 'long',
  ru_msgsnd: 'long',
  ru_msgrcv: 'long',
  ru_nsignals: 'long',
  ru_nvcsw: 'long',
  ru_nivcsw: 'long',
})

interface Usage {
  ru_utime: { tv_sec: number; tv_usec: number }
  ru_stime: { tv_sec: number; tv_usec: number }
  ru_minflt: number
  ru_majflt: number
  ru_nvcsw: number
  ru_nivcsw: number
}

let libc: { prctl: (...args: number[]) => number; getrusage: (who: number, usage: Usage) => number } | undefined

function bound(): NonNullable<typeof libc> {
  if (!libc) {
    const lib = koffi.load('libc.so.6')
    libc = {
      prctl: lib.func('int prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4, unsigned long arg5)'),
      getrusage: lib.func('getrusage', 'int', ['int', koffi.out(koffi.pointer(rusage))]),
    }
  }
  return libc
}

/** Makes this process a child subreaper; the reason it could not, when it could not (another OS, an old kernel). */
export function becomeChildSubreaper(): string | undefined {
  try {
    return bound().prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) === 0 ? undefined : 'prctl(PR_SET_CHILD_SUBREAPER) failed'
  } catch (error) {
    return `prctl could not be called (${(error as Error).message})`
  }
}

/**
 * What the children this process has reaped used, as one count that grows with each of them: CPU microseconds, page
 * faults and context switches (a process that ran at all has some); undefined where it cannot be read.
 */
export function reapedChildrenUsage(): number | undefined {
  try {
    const usage = {} as Usage
    if (bound().getrusage(RUSAGE_CHILDREN, usage) !== 0) return undefined
    const micros = (t: { tv_sec: number; tv_usec: number }) => t.tv_sec * 1e6 + t.tv_usec
    return micros(usage.ru_utime) + micros(usage.ru_stime) + usage.ru_minflt + usage.ru_majflt + usage.ru_nvcsw + usage.ru_nivcsw
  } catch {
    return undefined
  }
}
