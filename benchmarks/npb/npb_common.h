/* npb_common.h: what every NPB kernel shares (random numbers, timer, class argument, summary). */
#ifndef NPB_COMMON_H
#define NPB_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* ---- NPB linear congruential generator ----------------------------------
 * x_{k+1} = a * x_k mod 2^46, values returned as x_{k+1} * 2^-46 in (0,1).
 * Seeds and multipliers are odd integers in (1, 2^46) held in doubles (every
 * such integer is exact in a double). The arithmetic is done on 64-bit
 * unsigned integers: the low 46 bits of a wrapping 64-bit product are the
 * exact residue, so results are bit-identical to the reference algorithm. */

/* The multiplier every kernel uses: 5^13. */
#define NPB_RNG_A 1220703125.0

/* Advances *x once (x = a*x mod 2^46) and returns the new x * 2^-46. */
double randlc(double *x, double a);

/* Writes the next n values of the stream into y[0..n-1] and advances *x by n
 * steps; n <= 0 writes nothing and leaves *x unchanged. */
void vranlc(int n, double *x, double a, double *y);

/* a^k mod 2^46 by binary powering; npb_pow46(a, 0) is 1. Used to jump the
 * stream ahead: seed * a^k mod 2^46 is the seed k steps later, which lets
 * every thread start its share of a stream independently. */
double npb_pow46(double a, uint64_t k);

/* Seed advanced by k steps: seed * a^k mod 2^46. */
double npb_skip46(double seed, double a, uint64_t k);

/* ---- Timing --------------------------------------------------------------- */

/* Seconds on a monotonic clock (CLOCK_MONOTONIC); only differences mean anything. */
double npb_wtime(void);

/* The timed part of a kernel begins (its npb_wtime) and ends (seconds since
 * t0). In the emulated NUMA VM the part is tagged 1, so that the plugin's
 * ground truth (the harness's remote_share_tag1_pct) covers what the time
 * measures; the marker is a no-op instruction elsewhere. */
double npb_timer_start(void);
double npb_timer_stop(double t0);

/* ---- Command line -------------------------------------------------------- */

/* Parses the class letter in argv[1] (exactly one argument; S, W, A or B,
 * lower case accepted). On anything else prints
 *   usage: npb-<kernel> CLASS  (CLASS is one of S W A B)
 * to stderr and exits with status 2. Returns the upper-case letter. */
char npb_class_from_args(int argc, char **argv, const char *kernel);

/* As npb_class_from_args, for kernels that support a different set of
 * classes: `allowed` lists the accepted upper-case letters, e.g. "SWABC". */
char npb_class_from_args_allowed(int argc, char **argv, const char *kernel,
                                 const char *allowed);

/* Index of a class letter in the order S W A B C (0..4), for per-class
 * tables; -1 for any other letter. */
int npb_class_index(char cls);

/* ---- Verification and report --------------------------------------------- */

/* 1 when |value - ref| / |ref| <= eps, 0 otherwise; NaN and infinity fail. */
int npb_rel_ok(double value, double ref, double eps);

/* Prints the NPB summary block to stdout:
 *   <NAME> Benchmark Completed.
 *   Class = X
 *   Size = n1            (or n1x n2x n3 when n2 or n3 is non-zero)
 *   Iterations = N
 *   Time in seconds = T
 *   Total threads = P
 *   Mop/s total = M
 *   Mop/s/thread = M/P
 *   Operation type = ...
 *   Verification = SUCCESSFUL | UNSUCCESSFUL
 * `verified` is non-zero for success. Labels are followed by exactly " = "
 * so scripts and FileCheck can match them literally. */
void npb_print_results(const char *name, char cls, long n1, long n2, long n3,
                       int niter, double t, double mops, const char *optype,
                       int verified);

/* ---- Memory --------------------------------------------------------------- */

/* 64-byte aligned allocation (one cache line, so per-thread blocks never
 * share a line); prints the kernel name and exits with status 1 when memory
 * is exhausted, since a benchmark cannot continue without its data. The
 * memory is not touched, so the first parallel write decides page placement.
 * Free with free(). */
void *npb_alloc(size_t bytes, const char *what);

#endif /* NPB_COMMON_H */
