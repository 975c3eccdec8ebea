/* emu_pace.c: the check-ins of paced emulated time: waits, forgiven lag, halt and resume (emu_pace.h). */
#include "emu_pace.h"

#include <errno.h>
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
/* How far behind a vCPU may fall and still catch up: a host that runs other
 * jobs preempts a vCPU's thread for tens of ms now and then (measured here:
 * wake-ups 16-256 ms late a few times in 20 s at load 7 on 2 cores), and the
 * start of a program costs the host far more than the model (translating new
 * code). The excess is forgiven and counted as lag. A vCPU catching up runs at
 * the host's speed (tens of times the model's on memory-bound code); another
 * that waits for it meanwhile waits longer than the model says, as it would
 * had the lateness been forgiven, so catching up never makes a time more
 * wrong than forgiving. */
#define LAG_NS 250000000
/* The last part of a wait is spun on the clock: a sleep may wake late. */
#define SPIN_NS 20000

void emu_pace_init(struct emu_pace *p, uint64_t insn_ps, struct emu_counts *k)
{
    p->insn_ps = insn_ps;
    p->quantum_ps = (uint64_t)QUANTUM_NS * 1000;
    p->epoch = 1;
    p->on = 0;
    p->k = k;
}

void emu_pace_set(struct emu_pace *p, int on)
{
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
        return;
    }
    fold(p, v, vcpu);
    int64_t ahead = v->model_ns - (int64_t)now;
    if (ahead > (halt ? 0 : AHEAD_NS)) {
        uint64_t t = wait_until(v, now, (uint64_t)v->model_ns);
        emu_counts_pace(p->k, vcpu, EMU_PACE_WAIT_NS, t - now);
        return;
    }
    /* A halting vCPU's lateness can no longer be caught up: all of it is lag. */
    int64_t excess = -ahead - (halt ? 0 : LAG_NS);
    if (excess > 0) {
        v->model_ns += excess;
        emu_counts_lag(p->k, vcpu, (uint64_t)excess, now);
    }
}

void emu_pace_resume(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu)
{
    if (!__atomic_load_n(&p->on, __ATOMIC_RELAXED) || v->epoch != __atomic_load_n(&p->epoch, __ATOMIC_RELAXED))
        return; /* the next check-in starts the clock */
    fold(p, v, vcpu);
    v->model_ns = (int64_t)emu_now_ns();
}
