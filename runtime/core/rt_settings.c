/* rt_settings.c: the OMP_PLACEMENT* table: parse, validate, warn once per bad value, print. */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_log.h"
#include "rt_settings.h"
#include "rt_util.h"

/* Values longer than this are refused whole: no setting needs more, and a
 * runaway value is more likely a mistake than a wish. */
#define MAX_VALUE_LEN 1024
#define SAMPLE_MIN 1
#define SAMPLE_MAX 1000
#define DEFAULT_SAMPLE 4
#define FACTOR_MIN 1.0
#define FACTOR_MAX 100.0
/* The kernel scans a task's memory every 1 s at the fastest by default
 * (numa_balancing scan_period_min_ms) and folds a scan's faults into what
 * /proc shows at the next one: shorter windows would mostly see nothing. */
#define WINDOW_MIN_MS 10
#define WINDOW_MAX_MS 600000
#define DEFAULT_WINDOW_MS 2000
/* IMAR2's period bounds (ms): the paper's IMAR2[1,4] read as seconds; one
 * millisecond is the finest a helper thread's sleep honours, an hour the
 * coarsest that still migrates within a long run. */
#define PERIOD_MIN_MS 1.0
#define PERIOD_MAX_MS 3600000.0
#define DEFAULT_PERIOD_MS 1000.0
#define DEFAULT_PERIOD_SPAN 4.0 /* period_max = 4 x period unless given */
#define DEFAULT_RATIO 0.97
#define DEFAULT_BUDGET 2.0     /* % of the run: within the noise of a program with nothing to gain */
#define DEFAULT_REMOTE_MIN 0.1 /* a well-placed sample shows a few % remote, a misplaced thread most */
#define DEFAULT_SEED 1ull
/* The MPI mapper's interval (ms): the paper's lower bound (500 ms) and
 * slope (v = 2); an hour at most, as IMAR2's period. */
#define MPI_INTERVAL_MIN_MS 1.0
#define MPI_INTERVAL_MAX_MS 3600000.0
#define MPI_DEFAULT_INTERVAL_MS 500.0
#define MPI_DEFAULT_V 2.0
#define MPI_V_MAX 1000.0
#define MPI_DEFAULT_MAX_INTERVAL_MS 8000.0
#define MPI_DEFAULT_MIN_GAIN 0.1
#define MPI_DEFAULT_BUDGET 2.0 /* % of the run so far the remaps' memory moves may cost */

static const char *const source_names[RT_SOURCE_COUNT] = {
    "auto", "perf", "numa_balancing", "papi", "pagefault", "hints", "replay",
};
static const char *const perf_event_names[] = {"auto", "page-faults"};
static const char *const track_names[] = {"api", "anon", "all"};
static const char *const migrate_names[] = {"off", "imar2"};

const char *rt_source_name(rt_source_t source)
{
    return (unsigned)source < RT_SOURCE_COUNT ? source_names[source] : "?";
}

const char *rt_settings_policy_name(const rt_settings_t *s)
{
    return s->mode == RT_MODE_OFF       ? "off"
           : s->mode == RT_MODE_BUBBLE  ? "bubble"
           : s->mode == RT_MODE_MONITOR ? "imar2"
                                        : pl_policy_name(s->policy);
}

static void defaults(rt_settings_t *s)
{
    memset(s, 0, sizeof *s);
    s->mode = RT_MODE_LOOP;
    s->policy = PL_POLICY_CRITPATH;
    s->sample = DEFAULT_SAMPLE;
    s->numa_factor = 0.0;
    s->source = RT_SOURCE_AUTO;
    s->verify = 1;
    s->loops = 1;
    s->data = 1;
    s->track = RT_TRACK_ALL;
    s->window_ms = DEFAULT_WINDOW_MS;
    s->perf_event = RT_PERF_EVENT_AUTO;
    s->report = RT_REPORT_NONE;
    s->migrate = RT_MIGRATE_OFF;
    s->period_ms = DEFAULT_PERIOD_MS;
    s->period_max_ms = 0; /* resolved after parsing: DEFAULT_PERIOD_SPAN x period unless given */
    s->ratio = DEFAULT_RATIO;
    s->remote_min = DEFAULT_REMOTE_MIN;
    s->budget = DEFAULT_BUDGET;
    s->seed = DEFAULT_SEED;
    s->mpi.interval_ms = MPI_DEFAULT_INTERVAL_MS;
    s->mpi.v = MPI_DEFAULT_V;
    s->mpi.min_interval_ms = MPI_DEFAULT_INTERVAL_MS;
    s->mpi.max_interval_ms = MPI_DEFAULT_MAX_INTERVAL_MS;
    s->mpi.min_gain = MPI_DEFAULT_MIN_GAIN;
    s->mpi.budget = MPI_DEFAULT_BUDGET;
}

/* ---- what is wrong with one variable: gathered, then said in one line ---- */

typedef struct problems {
    char   text[768];
    size_t len;
    int    empty_items;   /* said once, with their count */
    int    untold;        /* problems past the room of text: counted at its end */
} problems_t;

/* Each problem whole or not at all: one that does not fit is counted, and
 * the line ends "(and N more)" (problems_end). */
static void problem(problems_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(problems_t *p, const char *fmt, ...)
{
    char one[sizeof p->text];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(one, sizeof one, fmt, ap);
    va_end(ap);
    size_t room = sizeof p->text - 32 - p->len; /* 32: "; " now, "; (and N more)" at the end */
    if (n < 0)
        return;
    if (!p->len && (size_t)n >= room) { /* the first one alone is too long: cut, and said so */
        p->len = (size_t)snprintf(p->text, sizeof p->text, "%.*s...", (int)(room - 4), one);
        return;
    }
    if ((size_t)n + 2 > room || p->untold) {
        p->untold++;
        return;
    }
    p->len += (size_t)snprintf(p->text + p->len, sizeof p->text - p->len, "%s%s", p->len ? "; " : "", one);
}

static void problems_end(problems_t *p)
{
    if (p->untold)
        p->len += (size_t)snprintf(p->text + p->len, sizeof p->text - p->len, "; (and %d more)", p->untold);
}

/* s as printable text (rt_escape, a backslash escaped too), at most max
 * bytes of it. */
static const char *escape(const char *s, size_t max, char *out, size_t len)
{
    rt_escape(s, max, 1, out, len);
    return out;
}

#define ESC_VALUE 200 /* bytes of a value quoted in a warning */
#define ESC(s) escape((s), ESC_VALUE, (char[4 * ESC_VALUE + 16]){0}, 4 * ESC_VALUE + 16)

/* ---- shared value parsers: 0 on success, -1 when the text is not a value of the kind ---- */

static int parse_bool(const char *v, int *out)
{
    static const char *const yes[] = {"1", "on", "true", "yes"};
    static const char *const no[] = {"0", "off", "false", "no"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcasecmp(v, yes[i])) { *out = 1; return 0; }
        if (!strcasecmp(v, no[i])) { *out = 0; return 0; }
    }
    return -1;
}

static int parse_double(const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !(x >= lo && x <= hi))
        return -1;
    *out = x;
    return 0;
}

static int parse_name(const char *v, const char *const *names, int n, int *out)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v, names[i])) { *out = i; return 0; }
    return -1;
}

/* ---- OMP_PLACEMENT ----
 *
 *   <placement> ::= <item> { "," <item> }
 *   <item>      ::= <policy> | <flag> | <key> "=" <value>       (spaces around items ignored)
 *   <policy>    ::= "off" | "critpath" | "critpath+refine" | "maxlocal" | "exhaustive"
 *                 | "compact" | "scatter" | "bubble"
 *                 | "imar2"                                     (at most one, any position;
 *                                                                imar2: the online monitor alone)
 *   <flag>      ::= "dry_run"                                   (same as dry_run=on)
 *   <key>=<value> ::= "sample=" <int 1..1000>
 *                 | "numa_factor=" ( "auto" | <real 1..100> )
 *                 | "source=" ( "auto" | "perf" | "numa_balancing" | "papi" | "pagefault"
 *                             | "hints" | "replay:" <readable file> )
 *                 | "window=" <int 10..600000>                  (ms, sources sampled by time)
 *                 | "perf_event=" ( "auto" | "page-faults" )    (page-faults: for testing)
 *                 | "verify=" <bool> | "dry_run=" <bool> | "loops=" <bool> | "data=" <bool>
 *                 | "primary=" ( "auto" | "return" | "stay" )   (the primary in serial code)
 *                 | "track=" ( "api" | "anon" | "all" )
 *                 | "scheduler=" ( "cache" | "memory" )        (for bubble)
 *                 | "cache=" <file that can be written>        (placement cache)
 *                 | "emu_tag=" <bool>                           (tag sampled executions for tools/numaemu)
 *                 | "migrate=" ( "off" | "imar2" )              (the monitor beside the region loop)
 *                 | "period=" <real ms 1..3600000>              (IMAR2's shortest period, default 1000)
 *                 | "period_max=" <real ms 1..3600000>          (its longest, >= period; default 4 x period)
 *                 | "ratio=" <real, 0 < r <= 1>                 (rollback threshold, default 0.97)
 *                 | "remote_min=" <real 0..1>                   (locality gate, default 0.1; 0 off)
 *                 | "budget=" ( "off" | <real % 0.01..100> )    (the page sampler's cost, default 2)
 *                 | "seed=" <unsigned 64-bit integer>           (the lottery's, default 1)
 *   <bool>      ::= "on" | "off" | "true" | "false" | "yes" | "no" | "1" | "0"
 */

typedef int (*option_fn)(rt_settings_t *s, const char *value, char *instead, size_t len);

static int opt_sample(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "sample=%d", s->sample);
    return rt_parse_int(v, SAMPLE_MIN, SAMPLE_MAX, &s->sample);
}

static int opt_numa_factor(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "numa_factor=auto");
    if (!strcmp(v, "auto")) {
        s->numa_factor = 0.0;
        return 0;
    }
    return parse_double(v, FACTOR_MIN, FACTOR_MAX, &s->numa_factor);
}

static int opt_source(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "source=auto");
    if (!strncmp(v, "replay:", 7)) {
        const char *path = v + 7;
        struct stat st;
        if (!*path || strlen(path) >= sizeof s->replay_path || access(path, R_OK) != 0 ||
            stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            return -1;
        strcpy(s->replay_path, path);
        s->source = RT_SOURCE_REPLAY;
        return 0;
    }
    int i;
    if (parse_name(v, source_names, RT_SOURCE_COUNT, &i) != 0 || i == RT_SOURCE_REPLAY)
        return -1;
    s->source = (rt_source_t)i;
    return 0;
}

static int opt_verify(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "verify=%s", s->verify ? "on" : "off");
    return parse_bool(v, &s->verify);
}

static int opt_loops(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "loops=%s", s->loops ? "on" : "off");
    return parse_bool(v, &s->loops);
}

static int opt_data(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "data=%s", s->data ? "on" : "off");
    return parse_bool(v, &s->data);
}

static const char *const primary_names[] = {"auto", "return", "stay"};

static int opt_primary(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    int i;
    snprintf(instead, len, "primary=%s", primary_names[s->primary]);
    if (parse_name(v, primary_names, 3, &i) != 0)
        return -1;
    s->primary = (rt_primary_t)i;
    return 0;
}

static int opt_dry_run(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "dry_run=%s", s->dry_run ? "on" : "off");
    return parse_bool(v, &s->dry_run);
}

static int opt_track(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    int i;
    snprintf(instead, len, "track=%s", track_names[s->track]);
    if (parse_name(v, track_names, 3, &i) != 0)
        return -1;
    s->track = (rt_track_t)i;
    return 0;
}

static int opt_window(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "window=%d", s->window_ms);
    return rt_parse_int(v, WINDOW_MIN_MS, WINDOW_MAX_MS, &s->window_ms);
}

static int opt_perf_event(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    int i;
    snprintf(instead, len, "perf_event=%s", perf_event_names[s->perf_event]);
    if (parse_name(v, perf_event_names, 2, &i) != 0)
        return -1;
    s->perf_event = (rt_perf_event_t)i;
    return 0;
}

static int opt_scheduler(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "scheduler=%s", pl_bubble_sched_name(s->scheduler));
    return pl_bubble_sched_from_name(v, &s->scheduler) == 0 ? 0 : -1;
}

static int writable_path(const char *path);
static int replaceable_path(const char *path);

static int opt_emu_tag(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "emu_tag=%s", s->emu_tag ? "on" : "off");
    return parse_bool(v, &s->emu_tag);
}

static int opt_cache(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "no cache");
    if (!*v || strlen(v) >= sizeof s->cache_path || !replaceable_path(v))
        return -1;
    strcpy(s->cache_path, v);
    return 0;
}

static int opt_migrate(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    int i;
    snprintf(instead, len, "migrate=%s", migrate_names[s->migrate]);
    if (parse_name(v, migrate_names, 2, &i) != 0)
        return -1;
    s->migrate = (rt_migrate_t)i;
    return 0;
}

static int opt_period(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "period=%g", s->period_ms);
    return parse_double(v, PERIOD_MIN_MS, PERIOD_MAX_MS, &s->period_ms);
}

static int opt_period_max(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "period_max=%s", "4 x period");
    return parse_double(v, PERIOD_MIN_MS, PERIOD_MAX_MS, &s->period_max_ms);
}

static int opt_ratio(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "ratio=%g", s->ratio);
    double r;
    if (parse_double(v, 0.0, 1.0, &r) != 0 || r <= 0.0)
        return -1;
    s->ratio = r;
    return 0;
}

static int opt_remote_min(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "remote_min=%g", s->remote_min);
    return parse_double(v, 0.0, 1.0, &s->remote_min);
}

/* "budget=<percent>", or "budget=off" for none. */
static int budget_item(double budget, char *buf, size_t len)
{
    return budget > 0 ? snprintf(buf, len, "budget=%g", budget) : snprintf(buf, len, "budget=off");
}

/* A budget's value: "off" (0) or a percentage in 0.01..100. OMP_PLACEMENT's
 * (the page sampler's) and OMP_PLACEMENT_MPI's (the remaps' memory moves). */
static int parse_budget(double *budget, const char *v, char *instead, size_t len)
{
    budget_item(*budget, instead, len);
    if (!strcmp(v, "off")) {
        *budget = 0;
        return 0;
    }
    return parse_double(v, 0.01, 100.0, budget);
}

static int opt_budget(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    return parse_budget(&s->budget, v, instead, len);
}

static int opt_seed(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "seed=%llu", s->seed);
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    /* strtoull accepts "-1" as 2^64-1: a sign is a mistake here. */
    if (errno || end == v || *end || !isdigit((unsigned char)v[0]))
        return -1;
    s->seed = x;
    return 0;
}

typedef struct option {
    const char *key;
    option_fn parse;
    const char *expect;  /* what a good value looks like, for the warning */
} option_t;

static const option_t placement_options[] = {
    {"sample", opt_sample, "an integer in 1..1000"},
    {"numa_factor", opt_numa_factor, "auto or a number in 1..100"},
    {"source", opt_source, "auto, perf, numa_balancing, papi, pagefault, hints or replay:<readable file>"},
    {"verify", opt_verify, "on or off"},
    {"dry_run", opt_dry_run, "on or off"},
    {"loops", opt_loops, "on or off"},
    {"data", opt_data, "on or off"},
    {"primary", opt_primary, "auto, return or stay"},
    {"track", opt_track, "api, anon or all"},
    {"scheduler", opt_scheduler, "cache or memory"},
    {"cache", opt_cache, "a regular file that can be written, or a new one"},
    {"emu_tag", opt_emu_tag, "on or off"},
    {"window", opt_window, "an integer number of milliseconds in 10..600000"},
    {"perf_event", opt_perf_event, "auto or page-faults"},
    {"migrate", opt_migrate, "off or imar2"},
    {"period", opt_period, "a number of milliseconds in 1..3600000"},
    {"period_max", opt_period_max, "a number of milliseconds in 1..3600000"},
    {"ratio", opt_ratio, "a number above 0 and at most 1"},
    {"remote_min", opt_remote_min, "a number in 0..1"},
    {"budget", opt_budget, "off or a percentage in 0.01..100"},
    {"seed", opt_seed, "an unsigned 64-bit integer"},
};

/* Whether v holds nothing but what trim strips. */
static int blank(const char *v)
{
    while (isspace((unsigned char)*v))
        v++;
    return !*v;
}

static char *trim(char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    char *e = p + strlen(p);
    while (e > p && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return p;
}

static int parse_policy_word(rt_settings_t *s, const char *w)
{
    if (!strcmp(w, "off")) {
        s->mode = RT_MODE_OFF;
        return 0;
    }
    if (!strcmp(w, "bubble")) {
        s->mode = RT_MODE_BUBBLE;
        return 0;
    }
    if (!strcmp(w, "imar2")) {
        s->mode = RT_MODE_MONITOR;
        s->migrate = RT_MIGRATE_IMAR2;
        return 0;
    }
    pl_policy_t p;
    if (pl_policy_from_name(w, &p) != 0)
        return -1;
    s->mode = RT_MODE_LOOP;
    s->policy = p;
    return 0;
}

/* A word that is not key=value: *have_policy says whether a policy came before. */
typedef void (*word_fn)(rt_settings_t *s, const char *w, int *have_policy, problems_t *p);

/* The comma-separated items of a value: key=value through options[] (a
 * bad value keeps what was there and says so), other words through word(),
 * empty items counted (strtok_r would skip them; they are mistakes worth a
 * warning, said last by say_empty_items). */
static void parse_items(rt_settings_t *s, const char *value, const option_t *options, size_t noptions,
                        word_fn word, problems_t *p)
{
    char buf[MAX_VALUE_LEN + 1];
    strcpy(buf, value); /* the caller checked the length */
    int have_policy = 0;
    char *item = buf;
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        char *w = trim(item);
        char *eq = strchr(w, '=');
        if (!*w) {
            p->empty_items++;
        } else if (eq) {
            *eq = '\0';
            const char *key = trim(w), *val = trim(eq + 1);
            size_t i;
            for (i = 0; i < noptions; i++)
                if (!strcmp(key, options[i].key))
                    break;
            if (i == noptions) {
                problem(p, "unknown option \"%s\"; ignored", ESC(key));
            } else {
                char instead[64];
                if (options[i].parse(s, val, instead, sizeof instead) != 0)
                    problem(p, "%s=\"%s\" is not %s; using %s", key, ESC(val), options[i].expect, instead);
            }
        } else {
            word(s, w, &have_policy, p);
        }
        if (!comma)
            break;
        item = comma + 1;
    }
}

static void say_empty_items(problems_t *p)
{
    if (p->empty_items == 1)
        problem(p, "empty item; ignored");
    else if (p->empty_items > 1)
        problem(p, "%d empty items; ignored", p->empty_items);
}

static void placement_word(rt_settings_t *s, const char *w, int *have_policy, problems_t *p)
{
    char cur[64];
    snprintf(cur, sizeof cur, "%s", rt_settings_policy_name(s));
    if (!strcmp(w, "dry_run")) {
        s->dry_run = 1;
    } else if (*have_policy) {
        problem(p, "a second policy \"%s\"; using %s", ESC(w), cur);
    } else {
        if (parse_policy_word(s, w) != 0)
            problem(p, "unknown policy \"%s\" (known: off, critpath, critpath+refine, "
                    "maxlocal, exhaustive, compact, scatter, bubble, imar2); using %s", ESC(w), cur);
        *have_policy = 1;
    }
}

static void parse_placement(rt_settings_t *s, const char *value, problems_t *p)
{
    parse_items(s, value, placement_options, sizeof placement_options / sizeof placement_options[0],
                placement_word, p);
    /* The monitor's settings, checked together once every item is read
     * (their order in the value does not matter). */
    if (s->mode == RT_MODE_MONITOR && s->migrate != RT_MIGRATE_IMAR2) {
        problem(p, "migrate=off contradicts imar2; using migrate=imar2");
        s->migrate = RT_MIGRATE_IMAR2;
    } else if (s->mode == RT_MODE_OFF && s->migrate != RT_MIGRATE_OFF) {
        problem(p, "migrate=imar2 with off (imar2 alone is the monitor without the region loop); using off");
        s->migrate = RT_MIGRATE_OFF;
    }
    if (s->period_max_ms == 0) {
        s->period_max_ms = s->period_ms * DEFAULT_PERIOD_SPAN;
        if (s->period_max_ms > PERIOD_MAX_MS)
            s->period_max_ms = PERIOD_MAX_MS;
    } else if (s->period_max_ms < s->period_ms) {
        problem(p, "period_max=%g is below period=%g; using period_max=%g", s->period_max_ms, s->period_ms,
                s->period_ms);
        s->period_max_ms = s->period_ms;
    }
    say_empty_items(p);
}

static void format_placement(const rt_settings_t *s, char *buf, size_t len)
{
    char factor[32];
    if (s->numa_factor > 0)
        snprintf(factor, sizeof factor, "%g", s->numa_factor);
    else
        strcpy(factor, "auto");
    char source[PATH_MAX + 16];
    if (s->source == RT_SOURCE_REPLAY)
        snprintf(source, sizeof source, "replay:%s", s->replay_path);
    else
        snprintf(source, sizeof source, "%s", rt_source_name(s->source));
    int n = snprintf(buf, len, "%s,sample=%d,numa_factor=%s,source=%s,verify=%s,dry_run=%s,track=%s",
                     rt_settings_policy_name(s), s->sample, factor, source, s->verify ? "on" : "off",
                     s->dry_run ? "on" : "off", track_names[s->track]);
    if (s->mode == RT_MODE_BUBBLE && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ",scheduler=%s", pl_bubble_sched_name(s->scheduler));
    if (s->migrate != RT_MIGRATE_OFF && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, "%s%s,period=%g,period_max=%g,ratio=%g,remote_min=%g,seed=%llu",
                 s->mode == RT_MODE_MONITOR ? "" : ",migrate=", s->mode == RT_MODE_MONITOR ? "" : migrate_names[s->migrate],
                 s->period_ms, s->period_max_ms, s->ratio, s->remote_min, s->seed);
    /* Shown when not the default, so the usual string stays short. */
    if (s->window_ms != DEFAULT_WINDOW_MS && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ",window=%d", s->window_ms);
    if (s->perf_event != RT_PERF_EVENT_AUTO && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ",perf_event=%s", perf_event_names[s->perf_event]);
    if (!s->loops && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ",loops=off");
    if (!s->data && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ",data=off");
    if (s->primary != RT_PRIMARY_AUTO && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ",primary=%s", primary_names[s->primary]);
    if (s->budget != DEFAULT_BUDGET && n > 0 && (size_t)n + 1 < len) {
        buf[n++] = ',';
        n += budget_item(s->budget, buf + n, len - (size_t)n);
    }
    if (s->cache_path[0] && n > 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ",cache=%s", s->cache_path);
    if (s->emu_tag && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ",emu_tag=on");
}

/* ---- OMP_PLACEMENT_REPORT: "" | "stderr" | <writable file path> ---- */

static int writable_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return !S_ISDIR(st.st_mode) && access(path, W_OK) == 0;
    return rt_dir_writable(path);
}

/* A file the runtime replaces whole (the placement cache, renamed over it):
 * a regular file that can be written, or a path where nothing is yet in a
 * directory that can be written. Never a symbolic link, a device, a FIFO or
 * a socket: the file put in its place would destroy what was there. */
static int replaceable_path(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0)
        return S_ISREG(st.st_mode) && access(path, W_OK) == 0;
    return errno == ENOENT && writable_path(path);
}

/* path as an absolute name with its directory resolved (a file that need
 * not exist yet), or -1. */
static int canonical(const char *path, char *out, size_t len)
{
    char d[PATH_MAX], b[PATH_MAX], dir[PATH_MAX];
    snprintf(d, sizeof d, "%s", path);
    snprintf(b, sizeof b, "%s", path);
    if (!realpath(dirname(d), dir))
        return -1;
    return snprintf(out, len, "%s/%s", dir, basename(b)) < (int)len ? 0 : -1;
}

/* Whether paths a and b name one file: the same inode when both exist, the
 * same resolved name when neither does. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int ea = stat(a, &sa), eb = stat(b, &sb);
    if (ea == 0 && eb == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ca[PATH_MAX], cb[PATH_MAX];
    return ea != 0 && eb != 0 && canonical(a, ca, sizeof ca) == 0 && canonical(b, cb, sizeof cb) == 0 &&
           !strcmp(ca, cb);
}

static void parse_report(rt_settings_t *s, const char *value, problems_t *p)
{
    if (!*value)
        s->report = RT_REPORT_NONE;
    else if (!strcmp(value, "stderr"))
        s->report = RT_REPORT_STDERR;
    else if (s->cache_path[0] && same_file(value, s->cache_path)) {
        /* Written at exit over the cache, it would destroy its entries. */
        problem(p, "the file of OMP_PLACEMENT's cache=; using stderr");
        s->report = RT_REPORT_STDERR;
    } else if (strlen(value) < sizeof s->report_path && writable_path(value)) {
        s->report = RT_REPORT_FILE;
        strcpy(s->report_path, value);
    } else {
        problem(p, "cannot write a file there; using stderr");
        s->report = RT_REPORT_STDERR;
    }
}

static void format_report(const rt_settings_t *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s->report == RT_REPORT_FILE ? s->report_path
                             : s->report == RT_REPORT_STDERR ? "stderr" : "");
}

/* ---- OMP_PLACEMENT_VERBOSE: <int 0..2> | <bool> ---- */

static void parse_verbose(rt_settings_t *s, const char *value, problems_t *p)
{
    int b;
    if (rt_parse_int(value, 0, 2, &s->verbose) == 0)
        return;
    if (parse_bool(value, &b) == 0) {
        s->verbose = b;
        return;
    }
    problem(p, "not 0, 1, 2, true or false; using 0");
    s->verbose = 0;
}

static void format_verbose(const rt_settings_t *s, char *buf, size_t len)
{
    snprintf(buf, len, "%d", s->verbose);
}

/* ---- OMP_PLACEMENT_DISPLAY_ENV: <bool> | "verbose" ---- */

static void parse_display_env(rt_settings_t *s, const char *value, problems_t *p)
{
    if (!strcasecmp(value, "verbose")) {
        s->display_env = 2;
        return;
    }
    if (parse_bool(value, &s->display_env) != 0) {
        problem(p, "not true, false or verbose; using false");
        s->display_env = 0;
    }
}

static void format_display_env(const rt_settings_t *s, char *buf, size_t len)
{
    snprintf(buf, len, "%s", s->display_env == 2 ? "verbose" : s->display_env ? "true" : "false");
}

/* ---- OMP_PLACEMENT_MPI: the MPI process mapper (control/rt_mpimap.c) ----
 *
 *   <mpi>     ::= <item> { "," <item> }                   (unset or empty: off)
 *   <item>    ::= <policy> | <flag> | <key> "=" <value>    (spaces around items ignored)
 *   <policy>  ::= "off" | "ondeloc"                        (at most one)
 *   <flag>    ::= "dry_run"                                (decide and record, move nothing)
 *               | "verbose"                                (the mapper's log on stderr)
 *   <key>=<value> ::= "interval=" <real ms 1..3600000>     (the first interval, default 500)
 *               | "v=" <real, 1 < v <= 1000>               (interval factor, default 2)
 *               | "min_interval=" <real ms 1..3600000>     (default 500, or interval when smaller)
 *               | "max_interval=" <real ms 1..3600000>     (default 8000)
 *               | "min_gain=" <real 0..1>                  (default 0.1)
 *               | "budget=" ( "off" | <real % 0.01..100> )  (the remaps' memory moves, default 2)
 *               | "report=" <path> | "matrix=" <path>      ("%h" in a path: the host's name)
 *               | "bindings=" ( "stderr" | <path> )
 *               | "topology=" <hwloc synthetic description or XML file>
 *
 * min_interval <= interval <= max_interval, checked once every item is read.
 */

static int opt_mpi_ms(double *ms, const char *key, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "%s=%g", key, *ms);
    return parse_double(v, MPI_INTERVAL_MIN_MS, MPI_INTERVAL_MAX_MS, ms);
}

static int opt_mpi_interval(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    return opt_mpi_ms(&s->mpi.interval_ms, "interval", v, instead, len);
}

static int opt_mpi_min_interval(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "min_interval=%g or interval when smaller", MPI_DEFAULT_INTERVAL_MS);
    return parse_double(v, MPI_INTERVAL_MIN_MS, MPI_INTERVAL_MAX_MS, &s->mpi.min_interval_ms);
}

static int opt_mpi_max_interval(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    return opt_mpi_ms(&s->mpi.max_interval_ms, "max_interval", v, instead, len);
}

static int opt_mpi_v(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "v=%g", s->mpi.v);
    double x;
    if (parse_double(v, 1.0, MPI_V_MAX, &x) != 0 || x <= 1.0)
        return -1;
    s->mpi.v = x;
    return 0;
}

static int opt_mpi_min_gain(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "min_gain=%g", s->mpi.min_gain);
    return parse_double(v, 0.0, 1.0, &s->mpi.min_gain);
}

static int opt_mpi_budget(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    return parse_budget(&s->mpi.budget, v, instead, len);
}

static int opt_mpi_path(char *dst, const char *v, char *instead, size_t len)
{
    snprintf(instead, len, "none");
    if (!*v || strlen(v) >= PATH_MAX)
        return -1;
    strcpy(dst, v);
    return 0;
}

static int opt_mpi_report(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    return opt_mpi_path(s->mpi.report, v, instead, len);
}

static int opt_mpi_matrix(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    return opt_mpi_path(s->mpi.matrix, v, instead, len);
}

static int opt_mpi_bindings(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    return opt_mpi_path(s->mpi.bindings, v, instead, len);
}

static int opt_mpi_topology(rt_settings_t *s, const char *v, char *instead, size_t len)
{
    int rc = opt_mpi_path(s->mpi.topology, v, instead, len);
    snprintf(instead, len, "this machine");
    return rc;
}

static const option_t mpi_options[] = {
    {"interval", opt_mpi_interval, "a number of milliseconds in 1..3600000"},
    {"v", opt_mpi_v, "a number above 1 (at most 1000)"},
    {"min_interval", opt_mpi_min_interval, "a number of milliseconds in 1..3600000"},
    {"max_interval", opt_mpi_max_interval, "a number of milliseconds in 1..3600000"},
    {"min_gain", opt_mpi_min_gain, "a number in 0..1"},
    {"budget", opt_mpi_budget, "off or a percentage in 0.01..100"},
    {"report", opt_mpi_report, "a file path"},
    {"matrix", opt_mpi_matrix, "a file path"},
    {"bindings", opt_mpi_bindings, "stderr or a file path"},
    {"topology", opt_mpi_topology, "an hwloc synthetic description or XML file"},
};

static void mpi_word(rt_settings_t *s, const char *w, int *have_policy, problems_t *p)
{
    const char *cur = s->mpi.enabled ? "ondeloc" : "off";
    if (!strcmp(w, "dry_run")) {
        s->mpi.dry_run = 1;
    } else if (!strcmp(w, "verbose")) {
        s->mpi.verbose = 1;
    } else if (strcmp(w, "off") && strcmp(w, "ondeloc")) {
        problem(p, "\"%s\" is not off, ondeloc, dry_run, verbose or key=value; ignored", ESC(w));
    } else if (*have_policy) {
        problem(p, "a second policy \"%s\"; using %s", ESC(w), cur);
    } else {
        s->mpi.enabled = !strcmp(w, "ondeloc");
        *have_policy = 1;
    }
}

static void parse_mpi(rt_settings_t *s, const char *value, problems_t *p)
{
    rt_mpi_settings_t *m = &s->mpi;
    if (!*value)
        return; /* empty: off, as unset */
    m->min_interval_ms = 0; /* not given, unless an item gives it */
    parse_items(s, value, mpi_options, sizeof mpi_options / sizeof mpi_options[0], mpi_word, p);
    /* The interval starts at or above its floor; without an explicit floor
     * the first interval is the floor when it is below the default (the
     * paper: never below 500 ms otherwise). */
    if (m->min_interval_ms == 0)
        m->min_interval_ms = m->interval_ms < MPI_DEFAULT_INTERVAL_MS ? m->interval_ms : MPI_DEFAULT_INTERVAL_MS;
    if (m->max_interval_ms < m->min_interval_ms) {
        problem(p, "max_interval=%g is below min_interval=%g; using max_interval=%g", m->max_interval_ms,
                m->min_interval_ms, m->min_interval_ms);
        m->max_interval_ms = m->min_interval_ms;
    }
    if (m->interval_ms < m->min_interval_ms || m->interval_ms > m->max_interval_ms) {
        double in = m->interval_ms < m->min_interval_ms ? m->min_interval_ms : m->max_interval_ms;
        problem(p, "interval=%g is outside min_interval..max_interval (%g..%g); using interval=%g", m->interval_ms,
                m->min_interval_ms, m->max_interval_ms, in);
        m->interval_ms = in;
    }
    say_empty_items(p);
}

static void format_mpi(const rt_settings_t *s, char *buf, size_t len)
{
    const rt_mpi_settings_t *m = &s->mpi;
    char budget[32];
    budget_item(m->budget, budget, sizeof budget);
    int n = snprintf(buf, len, "%s%s%s,interval=%g,v=%g,min_interval=%g,max_interval=%g,min_gain=%g,%s",
                     m->enabled ? "ondeloc" : "off", m->dry_run ? ",dry_run" : "", m->verbose ? ",verbose" : "",
                     m->interval_ms, m->v, m->min_interval_ms, m->max_interval_ms, m->min_gain, budget);
    const char *keys[] = {"report", "matrix", "bindings", "topology"};
    const char *vals[] = {m->report, m->matrix, m->bindings, m->topology};
    for (int i = 0; i < 4; i++)
        if (vals[i][0] && n > 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, ",%s=%s", keys[i], vals[i]);
}

/* ---- the table ---- */

static const struct {
    const char *name;
    void (*parse)(rt_settings_t *s, const char *value, problems_t *p);
    void (*format)(const rt_settings_t *s, char *buf, size_t len);
    const char *fallback; /* what an overlong value falls back to */
} table[] = {
    {"OMP_PLACEMENT", parse_placement, format_placement, "the default critpath"},
    {"OMP_PLACEMENT_REPORT", parse_report, format_report, "no report"},
    {"OMP_PLACEMENT_VERBOSE", parse_verbose, format_verbose, "0"},
    {"OMP_PLACEMENT_DISPLAY_ENV", parse_display_env, format_display_env, "false"},
    {"OMP_PLACEMENT_MPI", parse_mpi, format_mpi, "off"},
};
#define NVARS (sizeof table / sizeof table[0])
#define MPI_ROW (NVARS - 1) /* its warning is the job's: kept in s->mpi.warning */

void rt_settings_parse(rt_settings_t *s, const char *placement, const char *report,
                       const char *verbose, const char *display_env, const char *mpi)
{
    const char *values[NVARS] = {placement, report, verbose, display_env, mpi};
    defaults(s);
    for (size_t i = 0; i < NVARS; i++) {
        const char *v = values[i];
        if (!v || blank(v))
            continue; /* set to nothing (VAR= in a script) is unset: nothing to warn about */
        char line[sizeof s->mpi.warning];
        size_t n = strlen(v);
        problems_t p = {.len = 0};
        if (n > MAX_VALUE_LEN) {
            snprintf(line, sizeof line, "%s=\"%s\": %zu characters, longer than %d; using %s", table[i].name,
                     escape(v, 40, (char[256]){0}, 256), n, MAX_VALUE_LEN, table[i].fallback);
        } else {
            table[i].parse(s, v, &p);
            if (!p.len)
                continue;
            problems_end(&p);
            snprintf(line, sizeof line, "%s=\"%s\": %s", table[i].name, ESC(v), p.text);
        }
        if (i == MPI_ROW)
            snprintf(s->mpi.warning, sizeof s->mpi.warning, "%s", line);
        else
            rt_warn("%s", line);
    }
}

rt_settings_t rt_settings_resolved_;
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

static void resolve(void)
{
    rt_settings_parse(&rt_settings_resolved_, getenv("OMP_PLACEMENT"), getenv("OMP_PLACEMENT_REPORT"),
                      getenv("OMP_PLACEMENT_VERBOSE"), getenv("OMP_PLACEMENT_DISPLAY_ENV"),
                      getenv("OMP_PLACEMENT_MPI"));
    rt_log_verbosity = rt_settings_resolved_.verbose;
}

void rt_settings_init(void)
{
    pthread_once(&resolve_once, resolve);
}

void rt_settings_switch_off(void)
{
    rt_settings_resolved_.mode = RT_MODE_OFF;
    rt_settings_resolved_.migrate = RT_MIGRATE_OFF;
}

void rt_settings_format(const rt_settings_t *s, char *buf, size_t len)
{
    format_placement(s, buf, len);
}

void rt_settings_format_mpi(const rt_settings_t *s, char *buf, size_t len)
{
    format_mpi(s, buf, len);
}

void rt_settings_print(const rt_settings_t *s, FILE *out)
{
    /* Values are escaped as in warnings: a path with a newline in it (the
     * report's, the cache's) stays on its setting's line as \n, never
     * starts a line that looks like another setting. */
    char buf[PATH_MAX + 256], shown[4 * sizeof buf + 16];
    fprintf(out, "OMPNUMA DISPLAY ENVIRONMENT BEGIN\n");
    for (size_t i = 0; i < NVARS; i++) {
        table[i].format(s, buf, sizeof buf);
        fprintf(out, "  %s='%s'\n", table[i].name, escape(buf, sizeof buf, shown, sizeof shown));
    }
    fprintf(out, "OMPNUMA DISPLAY ENVIRONMENT END\n");
    fflush(out);
}
