/* start_on.c: ompnuma-start-on: run a command whose exec happens on one CPU, then give it back this process's CPUs before its first instruction. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
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
 * Here the command is exec'ed in a child bound to CPU alone, traced so that it
 * stops right after the exec; its CPUs are then set back to this process's
 * (what the command would have had) and it goes on, untraced. The command
 * sees the same CPUs, environment, arguments and descriptors as if run
 * directly; only where it started differs. The launcher waits for it and
 * exits as it did (the same status, or killed by the same signal); SIGINT,
 * SIGTERM, SIGHUP and SIGQUIT are passed on to it.
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

    int status, traced = 1;
    for (;;) {
        if (waitpid(child, &status, 0) < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "ompnuma-start-on: cannot wait for %s: %s\n", argv[2], strerror(errno));
            return 126;
        }
        if (!WIFSTOPPED(status))
            return end_as(status);
        /* Stopped by the exec (SIGTRAP), or by a signal that reached it
         * before: the latter is handed back when it goes on. */
        int sig = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
        if (traced && sig == 0) {
            if (sched_setaffinity(child, sizeof mine, &mine) != 0) {
                fprintf(stderr, "ompnuma-start-on: cannot give %s its CPUs back: %s\n", argv[2], strerror(errno));
                kill(child, SIGKILL);
                return 126;
            }
            traced = 0;
            ptrace(PTRACE_DETACH, child, NULL, NULL);
        } else if (traced) {
            ptrace(PTRACE_CONT, child, NULL, (void *)(long)sig);
        }
    }
}
