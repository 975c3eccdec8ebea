/* rt_emu_mark.h: marker instructions a guest program uses to reset, snapshot and tag the emulated-NUMA plugin's counts. */
#ifndef RT_EMU_MARK_H
#define RT_EMU_MARK_H

#include <stdint.h>

/* A marker is the 7-byte x86-64 instruction `nopl disp32(%rax)` (0f 1f 80 +
 * disp32): a no-op on real hardware and under QEMU without the plugin, so a
 * program may keep its markers everywhere. The plugin (tools/numaemu) matches
 * the displacement when it translates the code: the magic in its high 16
 * bits, an operation in the next 4, an argument in the low 12. Operations act
 * on the whole machine's counts, not only the calling thread's.
 *
 * Tags name intervals: while tag T is current, every vCPU's misses are also
 * counted under T (summed over every interval tagged T); tag 0 ends tagging.
 * A tag is sent one bit per marker (the instruction cannot carry a run-time
 * value), so a thread that changes vCPU in the middle of rt_emu_mark_tag (a
 * few instructions) may set a wrong tag: pin the thread that tags. */

#define RT_EMU_MARK_MAGIC 0x4e4d0000u /* "NM" */
#define RT_EMU_MARK_TAG_MAX 4095u

enum {
    RT_EMU_OP_RESET = 1,    /* zero every count (totals, tags, snapshots) */
    RT_EMU_OP_SNAPSHOT = 2, /* keep a copy of the counts as they are now */
    RT_EMU_OP_TAG_BEGIN = 3, /* start sending a tag on this vCPU */
    RT_EMU_OP_TAG_BIT = 4,  /* set bit <arg> of the tag being sent */
    RT_EMU_OP_TAG_SET = 5,  /* make the tag sent the current one */
};

#if defined(__x86_64__)
#define RT_EMU_MARK_(op, arg) \
    __asm__ __volatile__(".byte 0x0f, 0x1f, 0x80\n\t.long %c0" \
                         : : "i"(RT_EMU_MARK_MAGIC | ((unsigned)(op) << 12) | (unsigned)(arg)) : "memory")
#else
/* Only x86-64 guests are emulated; elsewhere the markers compile to nothing. */
#define RT_EMU_MARK_(op, arg) ((void)0)
#endif

static inline void rt_emu_mark_reset(void) { RT_EMU_MARK_(RT_EMU_OP_RESET, 0); }

static inline void rt_emu_mark_snapshot(void) { RT_EMU_MARK_(RT_EMU_OP_SNAPSHOT, 0); }

/* Make tag (0..RT_EMU_MARK_TAG_MAX; higher bits are ignored) current; 0 ends tagging. */
static inline void rt_emu_mark_tag(uint32_t tag)
{
    RT_EMU_MARK_(RT_EMU_OP_TAG_BEGIN, 0);
#define RT_EMU_MARK_BIT_(b) \
    if (tag & (1u << (b))) \
        RT_EMU_MARK_(RT_EMU_OP_TAG_BIT, b)
    RT_EMU_MARK_BIT_(0);
    RT_EMU_MARK_BIT_(1);
    RT_EMU_MARK_BIT_(2);
    RT_EMU_MARK_BIT_(3);
    RT_EMU_MARK_BIT_(4);
    RT_EMU_MARK_BIT_(5);
    RT_EMU_MARK_BIT_(6);
    RT_EMU_MARK_BIT_(7);
    RT_EMU_MARK_BIT_(8);
    RT_EMU_MARK_BIT_(9);
    RT_EMU_MARK_BIT_(10);
    RT_EMU_MARK_BIT_(11);
#undef RT_EMU_MARK_BIT_
    RT_EMU_MARK_(RT_EMU_OP_TAG_SET, 0);
}

#endif
