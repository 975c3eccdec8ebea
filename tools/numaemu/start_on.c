/* start_on.c: ompnuma-start-on: run a command whose exec happens on one CPU, keep it there while the loader runs, then give it back this process's CPUs before anything in it can see them. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <elf.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Usage: ompnuma-start-on CPU COMMAND [ARGUMENT...]
 *
 * At exec, Linux moves a task to the idlest CPU it may run on (exec
 * balancing), and the new program's first pages (its stack, the loader's
 * relocations of every library's data, the first heap) are then first-touched
 * on that CPU's node. In the NUMA VM that node changed from run to run: the
 * primary thread of a program bound to CPU 0 found its own stack and
 * libraries' data on another node in some runs and not in others, a spread of
 * 5 % in paced time with remote misses 17 to 51 times a local one.
 *
 * Here the command is exec'ed in a child bound to CPU alone, traced. The exec
 * stops it before the loader has run; it then runs on CPU, stopped at each
 * system call, until the first one that could see its CPUs or hand them on
 * (sched_getaffinity, sched_setaffinity, a clone or fork) or its entry point
 * (AT_ENTRY of its auxiliary vector, on x86-64, where a breakpoint waits),
 * whichever comes first. Only there are its CPUs set back to this process's
 * (what the command would have had), the entry's instruction restored, and it
 * goes on, untraced. So the loader relocates every library and sets up the
 * initial thread's TLS block on CPU, and a library constructor that reads its
 * CPUs sees what it would see run directly: GNU libgomp reads them in its
 * constructor, before the entry point, to build OMP_PLACES and bind the
 * initial thread; released only at the entry, it had built one place of the
 * one CPU it saw, and the release then unbound its primary (its teams of 2 ran
 * a worker on the primary's CPU and the primary anywhere;
 * tests/tools/start-on-constructors-see-cpus.c). Set back at the exec stop
 * instead, the loader ran wherever the scheduler moved it next: in the 4-node
 * VM libc's data was found on another node in some runs. Where the entry
 * cannot be found or patched, the CPUs are set back at the exec stop, as
 * before. The command sees the same CPUs, environment, arguments and
 * descriptors as if run directly; only where it started differs. The launcher
 * waits for it and exits as it did (the same status, or killed by the same
 * signal); SIGINT, SIGTERM, SIGHUP and SIGQUIT are passed on to it.
 *
 * Exit status 2: bad usage; 126: the tracing or the CPUs could not be set;
 * 127: the command could not be run.
 */

static pid_t child = -1;

static void pass_on(int sig)
{
    if (child > 0)
        kill(child, sig);
}

static int usage(const char *why)
{
    fprintf(stderr, "ompnuma-start-on: %s\nusage: ompnuma-start-on CPU COMMAND [ARGUMENT...]\n", why);
    return 2;
}

/* The command's end as this process's own. */
static int end_as(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    int sig = WTERMSIG(status);
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    return 128 + sig;
}

/* The entry point of the program the traced child just exec'ed (AT_ENTRY of
 * /proc/PID/auxv), or 0. */
static uintptr_t entry_of(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/auxv", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    Elf64_auxv_t aux;
    uintptr_t entry = 0;
    while (read(fd, &aux, sizeof aux) == (ssize_t)sizeof aux && aux.a_type != AT_NULL)
        if (aux.a_type == AT_ENTRY)
            entry = (uintptr_t)aux.a_un.a_val;
    close(fd);
    return entry;
}

/* The word at the entry before the breakpoint went in, and where. */
static uintptr_t bp_at;
static long bp_word;

/* Put an int3 on the child's entry point; 0 on success. */
static int break_at_entry(pid_t pid)
{
#if defined(__x86_64__)
    uintptr_t entry = entry_of(pid);
    if (!entry)
        return -1;
    errno = 0;
    long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)entry, NULL);
    if (errno)
        return -1;
    long trap = (long)(((unsigned long)word & ~0xfful) | 0xcc);
    if (ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)trap) != 0)
        return -1;
    bp_at = entry;
    bp_word = word;
    return 0;
#else
    (void)pid;
    return -1;
#endif
}

/* Take the breakpoint out of the entry; 0 on success. */
static int unbreak_entry(pid_t pid)
{
    return ptrace(PTRACE_POKETEXT, pid, (void *)bp_at, (void *)bp_word) != 0 ? -1 : 0;
}

/* If the child stopped on the breakpoint, take it out and step the child back
 * onto the entry's own instruction; 1 if it was the breakpoint, 0 if not, -1 on
 * failure. */
static int leave_entry(pid_t pid)
{
#if defined(__x86_64__)
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
        return -1;
    if (regs.rip != bp_at + 1)
        return 0;
    regs.rip = bp_at;
    if (unbreak_entry(pid) != 0 || ptrace(PTRACE_SETREGS, pid, NULL, &regs) != 0)
        return -1;
    return 1;
#else
    (void)pid;
    return 0;
#endif
}

/* Whether the child, stopped entering a system call, is about to see its CPUs
 * or hand them on to a new task. */
static int sees_cpus(pid_t pid)
{
#if defined(__x86_64__)
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
        return 1;
    if ((long)regs.rax != -ENOSYS) /* the stop after a call, not before */
        return 0;
    switch ((long)regs.orig_rax) {
    case SYS_sched_getaffinity:
    case SYS_sched_setaffinity:
    case SYS_clone:
    case SYS_fork:
    case SYS_vfork:
#ifdef SYS_clone3
    case SYS_clone3:
#endif
        return 1;
    default:
        return 0;
    }
#else
    (void)pid;
    return 1;
#endif
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage("expected a CPU and a command");
    char *end;
    errno = 0;
    long cpu = strtol(argv[1], &end, 10);
    if (errno || end == argv[1] || *end || cpu < 0 || cpu >= CPU_SETSIZE)
        return usage("the CPU must be a CPU number");
    cpu_set_t mine, one;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
        fprintf(stderr, "ompnuma-start-on: cannot read this process's CPUs: %s\n", strerror(errno));
        return 126;
    }
    if (!CPU_ISSET((int)cpu, &mine)) {
        fprintf(stderr, "ompnuma-start-on: CPU %ld is not one this process may run on\n", cpu);
        return 2;
    }
    CPU_ZERO(&one);
    CPU_SET((int)cpu, &one);

    child = fork();
    if (child < 0) {
        fprintf(stderr, "ompnuma-start-on: cannot fork: %s\n", strerror(errno));
        return 126;
    }
    if (child == 0) {
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0 || sched_setaffinity(0, sizeof one, &one) != 0) {
            fprintf(stderr, "ompnuma-start-on: cannot start on CPU %ld: %s\n", cpu, strerror(errno));
            _exit(126);
        }
        execvp(argv[2], argv + 2);
        fprintf(stderr, "ompnuma-start-on: %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    struct sigaction sa = {.sa_handler = pass_on};
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    int pass[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof pass / sizeof pass[0]; i++)
        sigaction(pass[i], &sa, NULL);

    /* Where the child is: 2 until the exec stop, 1 while it runs on CPU from
     * system call to system call, 0 once it runs untraced with its CPUs back. */
    int status, traced = 2;
    for (;;) {
        if (waitpid(child, &status, 0) < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "ompnuma-start-on: cannot wait for %s: %s\n", argv[2], strerror(errno));
            return 126;
        }
        if (!WIFSTOPPED(status))
            return end_as(status);
        /* Stopped at a system call (SIGTRAP | 0x80), by the exec or the
         * breakpoint (SIGTRAP), or by a signal that reached it before: the
         * latter is handed back when it goes on. */
        int at_call = WSTOPSIG(status) == (SIGTRAP | 0x80);
        int sig = at_call || WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
        int release = 0;
        if (traced == 2 && sig == 0) {
            traced = 1;
            release = ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)(long)PTRACE_O_TRACESYSGOOD) != 0 ||
                      break_at_entry(child) != 0;
        } else if (traced == 1 && at_call) {
            release = sees_cpus(child);
            if (release && unbreak_entry(child) != 0) {
                fprintf(stderr, "ompnuma-start-on: cannot restore %s's entry: %s\n", argv[2], strerror(errno));
                kill(child, SIGKILL);
                return 126;
            }
        } else if (traced == 1 && sig == 0) {
            int at = leave_entry(child);
            if (at < 0) {
                fprintf(stderr, "ompnuma-start-on: cannot step %s back onto its entry: %s\n", argv[2], strerror(errno));
                kill(child, SIGKILL);
                return 126;
            }
            release = at == 1;
            if (!release)
                sig = SIGTRAP; /* the program's own trap, not the breakpoint */
        }
        if (release) {
            if (sched_setaffinity(child, sizeof mine, &mine) != 0) {
                fprintf(stderr, "ompnuma-start-on: cannot give %s its CPUs back: %s\n", argv[2], strerror(errno));
                kill(child, SIGKILL);
                return 126;
            }
            traced = 0;
            ptrace(PTRACE_DETACH, child, NULL, NULL);
        } else if (traced) {
            ptrace(PTRACE_SYSCALL, child, NULL, (void *)(long)sig);
        }
    }
}
