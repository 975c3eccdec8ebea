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
 * clock, inside the plugin's callback, where QEMU's lock is not held; behind
 * by more than LAG it is forgiven the excess (its clock jumps forward, so
 * that it does not then run free) and the lag is counted. A vCPU that halts
 * syncs exactly first (emu_pace_halt), and one that resumes starts again from
 * the host's clock (emu_pace_resume): idle time passes as host time. */
struct emu_pace {
    uint64_t insn_ps; /* model time per instruction; 0: not paced */
    uint64_t quantum_ps;
    uint32_t epoch; /* bumped when pacing turns on: each vCPU restarts its clock from the host's */
    int on;
    struct emu_counts *k;
};

/* Private to one vCPU's thread. */
struct emu_pace_vcpu {
    int64_t model_ns; /* the clock at the last check-in */
    uint64_t pend_ps; /* model time since */
    uint64_t insns;   /* instructions since */
    uint32_t epoch;
    int slack_set;
};

void emu_pace_init(struct emu_pace *p, uint64_t insn_ps, struct emu_counts *k);
/* Turn pacing on (every vCPU restarts its clock) or off; from the control thread. */
void emu_pace_set(struct emu_pace *p, int on);

/* The check-in: fold pend_ps into the clock, wait or forgive. */
void emu_pace_check(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu, int halt);

/* A translation block of n instructions starts. */
static inline void emu_pace_insns(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu, uint64_t n)
{
    v->insns += n;
    v->pend_ps += n * p->insn_ps;
    if (v->pend_ps >= p->quantum_ps)
        emu_pace_check(p, v, vcpu, 0);
}

static inline void emu_pace_halt(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu)
{
    emu_pace_check(p, v, vcpu, 1);
}

void emu_pace_resume(struct emu_pace *p, struct emu_pace_vcpu *v, int vcpu);

#endif
