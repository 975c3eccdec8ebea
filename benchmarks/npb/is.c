/* is.c: NPB IS, ranking of integer keys by a parallel bucketed counting sort, with partial and full verification. */
#include "npb_common.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITERATIONS 10
#define TEST_ARRAY_SIZE 5
#define SEED 314159265.0
/* The largest bucket count of any class; sizes per-thread stack arrays. */
#define MAX_BUCKETS 1024

/* Per-class parameters (npb-verify.json "IS"), indexed S W A B C. */
static const int is_total_log2[5] = {16, 20, 23, 25, 27};
static const int is_maxkey_log2[5] = {11, 16, 19, 21, 23};
static const int is_buckets_log2[5] = {9, 10, 10, 10, 10};
static const long is_test_index[5][TEST_ARRAY_SIZE] = {
    {48427, 17148, 23627, 62548, 4431},
    {357773, 934767, 875723, 898999, 404505},
    {2112377, 662041, 5336171, 3642833, 4250760},
    {41869, 812306, 5102857, 18232239, 26860214},
    {44172927, 72999161, 74326391, 129606274, 21736814},
};
static const long is_test_rank[5][TEST_ARRAY_SIZE] = {
    {0, 18, 346, 64917, 65463},
    {1249, 11698, 1039987, 1043896, 1048018},
    {104, 17523, 123928, 8288932, 8388264},
    {33422937, 10244, 59149, 33135281, 99},
    {61147, 882988, 266290, 133997595, 133525895},
};
/* Expected rank of test key j at iteration it:
 * test_rank + sign * (it - offset). */
static const int is_delta_sign[5][TEST_ARRAY_SIZE] = {
    {+1, +1, +1, -1, -1},
    {+1, +1, -1, -1, -1},
    {+1, +1, +1, -1, -1},
    {-1, +1, +1, -1, +1},
    {+1, +1, +1, -1, -1},
};
static const int is_delta_offset[5][TEST_ARRAY_SIZE] = {
    {0, 0, 0, 0, 0},
    {2, 2, 0, 0, 0},
    {1, 1, 1, 1, 1},
    {0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0},
};

/* Added to every expected rank; non-zero only in the test of the failure
 * path, so the real comparison runs on a correct ranking. */
#ifndef IS_RANK_BIAS
#define IS_RANK_BIAS 0
#endif

static int ci;          /* class index */
static long nkeys;      /* TOTAL_KEYS */
static int max_key;     /* keys lie in [0, max_key) */
static int nbuckets;    /* NUM_BUCKETS */
static int bucket_shift; /* bucket of key k is k >> bucket_shift */

static int *key_array;   /* the keys, in generation order */
static int *key_buff1;   /* after ranking: key_buff1[v] = number of keys <= v */
static int *key_buff2;   /* the keys regrouped by bucket */
static int *bucket_size; /* per thread: nbuckets counts, one row per thread */
static int *bucket_ptr;  /* per thread: next write position per bucket */
static int max_threads;

/* Bucket boundaries of the last ranking, for the full verification. */
static int last_team;
static long last_start[MAX_BUCKETS + 1];

static int passed_verification;
/* Values of the test keys in the last iteration (a published debug checkpoint). */
static int last_test_keys[TEST_ARRAY_SIZE];

/* Contiguous share [lo, hi) of n items for thread t of T. Used for key
 * generation and for counting, so each thread counts the keys it wrote. */
static void share(long n, int t, int T, long *lo, long *hi)
{
    *lo = n * t / T;
    *hi = n * (t + 1) / T;
}

/* First bucket owned by thread t of T in the counting phase: the buckets are
 * split so that each thread gets about n/T keys. start[] has nbuckets+1
 * entries, non-decreasing, start[nbuckets] = n. */
static int first_bucket(const long *start, int t, int T)
{
    if (t >= T)
        return nbuckets;
    long target = nkeys * t / T;
    int b = 0;
    while (b < nbuckets && start[b] < target)
        b++;
    return b;
}

/* Keys from one continuous LCG stream, four numbers per key; each thread
 * jumps ahead to its share so the keys do not depend on the thread count.
 * Writing in parallel also places each thread's share of key_array (and of
 * key_buff2, touched here) on that thread's node. */
static void create_keys(void)
{
    double k = (double)(max_key / 4);
#pragma omp parallel
    {
        long lo, hi;
        share(nkeys, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
        double seed = npb_skip46(SEED, NPB_RNG_A, 4 * (uint64_t)lo);
        for (long i = lo; i < hi; i++) {
            double x = randlc(&seed, NPB_RNG_A);
            x += randlc(&seed, NPB_RNG_A);
            x += randlc(&seed, NPB_RNG_A);
            x += randlc(&seed, NPB_RNG_A);
            key_array[i] = (int)(k * x);
            key_buff2[i] = 0;
        }
    }
}

/* One benchmark iteration: modify two keys, rank all keys, check the five
 * test keys against their expected ranks. */
static void rank(int it)
{
    key_array[it] = it;
    key_array[it + MAX_ITERATIONS] = max_key - it;
    int partial_keys[TEST_ARRAY_SIZE];
    for (int j = 0; j < TEST_ARRAY_SIZE; j++)
        partial_keys[j] = key_array[is_test_index[ci][j]];

#pragma omp parallel
    {
        int T = omp_get_num_threads();
        int t = omp_get_thread_num();
        int *size = bucket_size + (size_t)t * nbuckets;
        int *ptr = bucket_ptr + (size_t)t * nbuckets;
        long lo, hi;
        share(nkeys, t, T, &lo, &hi);

        /* 1. Count this thread's keys per bucket. */
        memset(size, 0, (size_t)nbuckets * sizeof *size);
        for (long i = lo; i < hi; i++)
            size[key_array[i] >> bucket_shift]++;
#pragma omp barrier

        /* 2. Where this thread's keys of bucket b go: after all keys of
         * earlier buckets and after the bucket-b keys of lower threads.
         * Every thread also derives the same bucket start table. */
        long start[MAX_BUCKETS + 1];
        long run = 0;
        for (int b = 0; b < nbuckets; b++) {
            start[b] = run;
            long before = 0;
            for (int u = 0; u < T; u++) {
                int s = bucket_size[(size_t)u * nbuckets + b];
                if (u < t)
                    before += s;
                run += s;
            }
            ptr[b] = (int)(start[b] + before);
        }
        start[nbuckets] = run;

        /* 3. Scatter the keys, grouped by bucket. */
        for (long i = lo; i < hi; i++) {
            int key = key_array[i];
            key_buff2[ptr[key >> bucket_shift]++] = key;
        }
#pragma omp barrier

        /* 4. Each thread ranks a contiguous range of buckets: a histogram of
         * its key values, then a prefix sum starting from the number of keys
         * in all earlier buckets. */
        int b0 = first_bucket(start, t, T);
        int b1 = first_bucket(start, t + 1, T);
        int v0 = b0 << bucket_shift, v1 = b1 << bucket_shift;
        memset(key_buff1 + v0, 0, (size_t)(v1 - v0) * sizeof *key_buff1);
        for (long i = start[b0]; i < start[b1]; i++)
            key_buff1[key_buff2[i]]++;
        int m = (int)start[b0];
        for (int v = v0; v < v1; v++) {
            m += key_buff1[v];
            key_buff1[v] = m;
        }

        if (t == 0) {
            last_team = T;
            memcpy(last_start, start, (size_t)(nbuckets + 1) * sizeof *start);
        }
    }

    for (int j = 0; j < TEST_ARRAY_SIZE; j++) {
        int k = partial_keys[j];
        last_test_keys[j] = k;
        if (k > 0 && k <= nkeys - 1) {
            long expect = IS_RANK_BIAS + is_test_rank[ci][j] +
                          is_delta_sign[ci][j] * (long)(it - is_delta_offset[ci][j]);
            long got = key_buff1[k - 1];
            if (got == expect)
                passed_verification++;
            else
                printf(" Failed partial verification: iteration %d, test key %d (rank %ld, expected %ld)\n",
                       it, j, got, expect);
        }
    }
}

/* Places every key at its sorted position using the counts of the last
 * ranking, then checks that the result is non-decreasing. The threads take
 * the bucket ranges of the last ranking, so the positions they fill are
 * disjoint. */
static void full_verify(void)
{
    long unsorted = 0;
#pragma omp parallel reduction(+ : unsorted)
    {
        int T = omp_get_num_threads();
        int t = omp_get_thread_num();
        /* Fall back to one thread doing it all if the team size changed. */
        if (T == last_team) {
            int b0 = first_bucket(last_start, t, T);
            int b1 = first_bucket(last_start, t + 1, T);
            for (long i = last_start[b0]; i < last_start[b1]; i++) {
                int key = key_buff2[i];
                key_array[--key_buff1[key]] = key;
            }
        } else if (t == 0) {
            for (long i = 0; i < nkeys; i++) {
                int key = key_buff2[i];
                key_array[--key_buff1[key]] = key;
            }
        }
#pragma omp barrier
#pragma omp for schedule(static)
        for (long i = 1; i < nkeys; i++)
            if (key_array[i - 1] > key_array[i])
                unsorted++;
    }
    if (unsorted == 0)
        passed_verification++;
    else
        printf(" Full verification failed: %ld keys out of order\n", unsorted);
}

int main(int argc, char **argv)
{
    char cls = npb_class_from_args_allowed(argc, argv, "is", "SWABC");
    ci = npb_class_index(cls);
    nkeys = 1L << is_total_log2[ci];
    max_key = 1 << is_maxkey_log2[ci];
    nbuckets = 1 << is_buckets_log2[ci];
    bucket_shift = is_maxkey_log2[ci] - is_buckets_log2[ci];
    max_threads = omp_get_max_threads();

    printf("\n NAS Parallel Benchmarks (ompnuma C/OpenMP) - IS Benchmark\n\n");
    printf(" Size:  %ld  (class %c)\n", nkeys, cls);
    printf(" Iterations:  %d\n", MAX_ITERATIONS);
    printf(" Number of available threads:  %d\n", max_threads);

    key_array = npb_alloc((size_t)nkeys * sizeof *key_array, "IS keys");
    key_buff2 = npb_alloc((size_t)nkeys * sizeof *key_buff2, "IS bucketed keys");
    key_buff1 = npb_alloc((size_t)max_key * sizeof *key_buff1, "IS key counts");
    /* Rows of nbuckets ints (a multiple of 16) keep each thread's counters
     * on its own cache lines. */
    bucket_size = npb_alloc((size_t)max_threads * nbuckets * sizeof *bucket_size, "IS buckets");
    bucket_ptr = npb_alloc((size_t)max_threads * nbuckets * sizeof *bucket_ptr, "IS buckets");

    create_keys();

    /* Untimed warm-up ranking, which also first-touches key_buff1 by the
     * threads that own its ranges. */
    rank(1);
    passed_verification = 0;

    printf("\n   iteration\n");
    double t0 = npb_timer_start();
    for (int it = 1; it <= MAX_ITERATIONS; it++) {
        printf("        %d\n", it);
        rank(it);
    }
    double t = npb_timer_stop(t0);

    printf(" Test keys in the last iteration:");
    for (int j = 0; j < TEST_ARRAY_SIZE; j++)
        printf(" %d", last_test_keys[j]);
    printf("\n");
    full_verify();
    printf(" Passed verifications = %d of %d\n", passed_verification,
           TEST_ARRAY_SIZE * MAX_ITERATIONS + 1);

    int ok = passed_verification == TEST_ARRAY_SIZE * MAX_ITERATIONS + 1;
    double mops = (double)MAX_ITERATIONS * (double)nkeys / t / 1e6;
    npb_print_results("IS", cls, nkeys, 0, 0, MAX_ITERATIONS, t, mops, "keys ranked", ok);

    free(key_array);
    free(key_buff1);
    free(key_buff2);
    free(bucket_size);
    free(bucket_ptr);
    return ok ? 0 : 1;
}
