/* emu_pace.c: the check-ins of paced emulated time: waits, lag, halt and resume (emu_pace.h). */
#include "emu_pace.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

/* Model time between check-ins: a waiting vCPU takes interrupts up to this
 * late, and a check-in (a clock read) every 50 us costs nothing. */
#define QUANTUM_NS 50000
/* How far a vCPU may run ahead of the host's clock before it waits: what
 * another vCPU can see of its work early. Waits are then at least this long,
 * so they are mostly sleeps, and a host thread that wakes late is caught up
 * within the next quanta. */
#define AHEAD_NS 200000
/* A vCPU behind the host's clock runs at the host's speed until it has
 * caught up (tens of times the model's on memory-bound code). A host that runs
 * other jobs delays a vCPU's thread for tens of ms now and then (measured
 * here: wake-ups 16-256 ms late a few times in 20 s at load 7 on 2 cores), and
 * the start of a program costs the host far more than the model (translating
 * new code). Lateness a vCPU catches up alone changes no time; the guest sees
 * it where the vCPU's work is waited for or its clock jumps. So a vCPU's lag
 * counts, beyond LATE_NS (jitter):
 *   - the lateness of the latest other vCPU when its own spin-wait in user
 *     code ends (a quantum of user code with a pause, then one without: a
 *     barrier or lock it waited at was released, by that vCPU as late as it
 *     was; quanta of kernel code only, interrupts, change nothing) or when,
 *     resumed from halt, it runs user code again (woken, maybe by that
 *     vCPU: a futex; timer ticks that find nothing to run do not count), as
 *     far as it has not counted it already: a team that waited for a late
 *     vCPU at one barrier runs on from there at the pace of that vCPU, so its
 *     next barriers add only what the lateness grew since (what was counted
 *     shrinks as the others catch up);
 *   - its own lateness when it halts (its work ended that late);
 *   - lateness beyond FORGIVE_NS, forgiven: its clock jumps, so that it does
 *     not then run free for long, and the time it measures stretches. */
#define LATE_NS 1000000
#define FORGIVE_NS 250000000
/* The last part of a wait is spun on the clock: a sleep may wake late. */
#define SPIN_NS 20000

int emu_pace_init(struct emu_pace *p, uint64_t insn_ps, int vcpus, struct emu_counts *k)
{
    p->insn_ps = insn_ps;
    p->quantum_ps = (uint64_t)QUANTUM_NS * 1000;
    p->epoch = 1;
    p->on = 0;
    p->vcpus = vcpus;
    p->late = calloc((size_t)vcpus, sizeof *p->late);
    p->k = k;
    return p->late ? 0 : -1;
}

/* How late the latest other vCPU is; what vcpu counted of it shrinks to that. */
static int64_t others_late(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu)
{
    int64_t m = 0;
    for (int u = 0; u < p->vcpus; u++) {
        int64_t l = __atomic_load_n(&p->late[u], __ATOMIC_RELAXED);
        if (u != vcpu && l > m)
            m = l;
    }
    if (v->absorbed > m)
        v->absorbed = m;
    return m;
}

/* vcpu's wait ended: count as its lag what the others' lateness m adds to what it counted, beyond LATE_NS. */
static void waited(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu, int64_t m, uint64_t now)
{
    int64_t from = v->absorbed > LATE_NS ? v->absorbed : LATE_NS;
    if (m > from)
        emu_counts_lag(p->k, vcpu, (uint64_t)(m - from), now);
    if (m > v->absorbed)
        v->absorbed = m;
}

void emu_pace_set(struct emu_pace *p, int on)
{
    for (int u = 0; u < p->vcpus; u++)
        __atomic_store_n(&p->late[u], 0, __ATOMIC_RELAXED);
    if (on)
        __atomic_fetch_add(&p->epoch, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&p->on, on, __ATOMIC_RELAXED);
    emu_counts_pacing(p->k, on, emu_now_ns());
}

/* Fold the model time and instructions since the last check-in into the clock and the counts. */
static void fold(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu)
{
    uint64_t ns = v->pend_ps / 1000;
    v->pend_ps -= ns * 1000;
    v->model_ns += (int64_t)ns;
    emu_counts_pace(p->k, vcpu, EMU_PACE_INSNS, v->insns);
    emu_counts_pace(p->k, vcpu, EMU_PACE_MODEL_NS, ns);
    v->insns = 0;
}

/* Until the host's clock reaches target: sleep, then spin the last SPIN_NS. */
static uint64_t wait_until(struct emu_pace_vcpu *v, uint64_t now, uint64_t target)
{
    if (!v->slack_set) {
        /* This thread's sleeps wake when asked, not up to 50 us later. */
        prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
        v->slack_set = 1;
    }
    if (target > now + SPIN_NS) {
        uint64_t wake = target - SPIN_NS;
        struct timespec ts = {(time_t)(wake / 1000000000u), (long)(wake % 1000000000u)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
            ;
    }
    uint64_t t;
    while ((t = emu_now_ns()) < target)
        __builtin_ia32_pause();
    return t;
}

void emu_pace_check(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu, int halt)
{
    if (!__atomic_load_n(&p->on, __ATOMIC_RELAXED)) {
        v->pend_ps = 0;
        v->insns = 0;
        return;
    }
    uint64_t now = emu_now_ns();
    uint32_t epoch = __atomic_load_n(&p->epoch, __ATOMIC_RELAXED);
    if (v->epoch != epoch) {
        /* Pacing (re)started: what ran before is not counted. */
        v->epoch = epoch;
        v->model_ns = (int64_t)now;
        v->pend_ps = 0;
        v->insns = 0;
        v->user = v->spun = v->spinning = v->woke = 0;
        v->absorbed = 0;
        return;
    }
    fold(p, v, vcpu);
    int64_t others = others_late(p, v, vcpu);
    if (v->user) {
        if ((v->spinning && !v->spun) || v->woke)
            waited(p, v, vcpu, others, now);
        v->spinning = v->spun;
        v->woke = 0;
    }
    v->user = v->spun = 0;
    int64_t ahead = v->model_ns - (int64_t)now, late = 0;
    if (ahead > (halt ? 0 : AHEAD_NS)) {
        uint64_t t = wait_until(v, now, (uint64_t)v->model_ns);
        emu_counts_pace(p->k, vcpu, EMU_PACE_WAIT_NS, t - now);
    } else if (ahead < 0) {
        late = -ahead;
        if (halt) {
            if (late > LATE_NS)
                emu_counts_lag(p->k, vcpu, (uint64_t)(late - LATE_NS), now);
        } else if (late > FORGIVE_NS) {
            emu_counts_lag(p->k, vcpu, (uint64_t)(late - FORGIVE_NS), now);
            v->model_ns = (int64_t)now - FORGIVE_NS;
            late = FORGIVE_NS;
        }
    }
    /* A halting vCPU restarts from the host's clock when it resumes. */
    __atomic_store_n(&p->late[vcpu], halt ? 0 : late, __ATOMIC_RELAXED);
    if (halt)
        v->spinning = v->woke = 0;
}

void emu_pace_resume(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu)
{
    if (!__atomic_load_n(&p->on, __ATOMIC_RELAXED) || v->epoch != __atomic_load_n(&p->epoch, __ATOMIC_RELAXED))
        return; /* the next check-in starts the clock */
    fold(p, v, vcpu);
    v->model_ns = (int64_t)emu_now_ns();
    v->woke = 1;
}
