/* check-layers-writers.test: the report reads the loop's state, and one line writes it. */
void report(const rt_region_t *r)
{
    rt_loop_region_t *l = (rt_loop_region_t *)rt_loop_of(r), *m = l;
    printf("%f", l->cp_before_ns + m->cp_after_ns);
    m->cp_after_ns = 0;
}
