/* rt_runtime.h: bringing the runtime up once and down at exit. */
#ifndef OMPNUMA_RT_RUNTIME_H
#define OMPNUMA_RT_RUNTIME_H

/* Once, from the tool's initializer: settings, machine, affinity owner,
 * counter sources, update_hints. Never fails the program: what does not
 * work is switched off with a reason. */
void rt_runtime_init(void);

/* After the settings: whether ompnuma has anything to do (place, report,
 * or display the settings); when not, the OpenMP layer stays out of the
 * program's way and never brings the runtime up. */
int rt_runtime_wanted(void);

/* At the program's load (a drop-in's constructor, before main): what must
 * start before the program runs, and only that (the recorder of first
 * touches, when the settings may want memory named). */
void rt_runtime_preload(void);

/* OMP_PLACEMENT_DISPLAY_ENV's settings block, once per process: at the
 * start of the OpenMP tool or of the MPI layer, whichever comes first. */
void rt_runtime_display(void);

/* Once, at the tool's finalizer: write the report if one was asked for. */
void rt_runtime_fini(void);

#endif
