/* emu_pace.h: paced emulated time: each vCPU's model clock (instructions x cost + charged memory time) and the waits that hold the host's clock, which the guest reads, to it. */
#ifndef EMU_PACE_H
#define EMU_PACE_H

#include <stdint.h>

#include "emu_counts.h"

/* A vCPU's model clock is host monotonic time: where the host's clock should
 * be when the vCPU has done what it did. Every instruction adds insn_ps, every
 * charged memory access its latency (the caller adds both to pend_ps). Once
 * pend_ps reaches a quantum the vCPU checks in (emu_pace_check): ahead of the
 * host by more than AHEAD it waits, sleeping and then spinning on the host's
 * clock, inside the plugin's callback, where QEMU's lock is not held; behind,
 * it runs at the host's speed until it has caught up, and beyond FORGIVE it
 * is forgiven (its clock jumps forward, so that it does not then run free).
 * A vCPU that halts syncs exactly first (emu_pace_halt), and one that resumes
 * starts again from the host's clock (emu_pace_resume): idle time passes as
 * host time. Lag (emu_pace.c) counts the lateness the guest can have seen. */
struct emu_pace {
    uint64_t insn_ps; /* model time per instruction; 0: not paced */
    uint64_t quantum_ps;
    uint32_t epoch; /* bumped when pacing turns on: each vCPU restarts its clock from the host's */
    int on;
    int vcpus;
    int64_t *late; /* per vCPU: how far behind the host's clock it was at its last check-in */
    struct emu_counts *k;
};

/* Private to one vCPU's thread. */
struct emu_pace_vcpu {
    int64_t model_ns; /* the clock at the last check-in */
    uint64_t pend_ps; /* model time since */
    uint64_t insns;   /* instructions since */
    uint32_t epoch;
    int user;          /* user code ran since the last check-in */
    int spun;          /* ... and a pause in it */
    int spinning;      /* the vCPU was last seen spin-waiting in user code */
    int woke;          /* it resumed from halt and has not run user code since */
    int64_t absorbed;  /* the others' lateness already counted as its lag (emu_pace.c) */
    int slack_set;
};

/* 0, or -1 when memory is short. */
int emu_pace_init(struct emu_pace *p, uint64_t insn_ps, int vcpus, struct emu_counts *k);
/* Turn pacing on (every vCPU restarts its clock) or off; from the control thread. */
void emu_pace_set(struct emu_pace *p, int on);

/* The check-in: fold pend_ps into the clock, wait or forgive. */
void emu_pace_check(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu, int halt);

/* A translation block of n instructions, costing the model `cost` instructions' time, starts (cost > n:
 * it holds a pause, the instruction of spin-waits); user: it is user code. */
static inline void emu_pace_insns(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu, uint64_t n, uint64_t cost,
                                  int user)
{
    v->user |= user;
    v->spun |= user && cost != n;
    v->insns += n;
    v->pend_ps += cost * p->insn_ps;
    if (v->pend_ps >= p->quantum_ps)
        emu_pace_check(p, v, vcpu, 0);
}

static inline void emu_pace_halt(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu)
{
    emu_pace_check(p, v, vcpu, 1);
}

void emu_pace_resume(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu);

#endif
